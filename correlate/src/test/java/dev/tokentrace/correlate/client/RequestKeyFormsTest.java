package dev.tokentrace.correlate.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.clients.ResponseIds;
import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.RequestAborted;
import dev.tokentrace.event.RequestArrived;
import dev.tokentrace.event.RequestKeys;
import dev.tokentrace.event.RequestTiming;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every ID form of docs/formats/clients.md#client-formats, docs/formats/clients.md#server-side-ids
 * and docs/formats/vllm.md#request-ids: the key the server side stores (from the real vLLM parser
 * where vLLM writes it, else {@link RequestKeys#normalize} as the SGLang and TensorRT-LLM parsers
 * use it) equals the key the client side stores.
 */
final class RequestKeyFormsTest {
  static Stream<Arguments> forms() {
    return Stream.of(
        // AIPerf sends X-Request-ID: <uuid>; vLLM >= v0.6.5 logs chatcmpl-<uuid>
        Arguments.of(
            "AIPerf UUID via chat",
            "7609a2e7-aa53-4ab1-98f4-f35ecafefd25",
            keys(ServerEvents.received("chatcmpl-7609a2e7-aa53-4ab1-98f4-f35ecafefd25"))),
        // ... and on /v1/completions one engine request per prompt: cmpl-<id>-<i>
        Arguments.of(
            "AIPerf UUID via completions",
            "7609a2e7-aa53-4ab1-98f4-f35ecafefd25",
            keys(ServerEvents.received("cmpl-7609a2e7-aa53-4ab1-98f4-f35ecafefd25-0"))),
        // vllm bench: x-request-id <prefix><index>, the index looking like a prompt index
        Arguments.of(
            "vLLM bench prefix + index",
            "bench-1a2b3c4d-17",
            keys(ServerEvents.received("cmpl-bench-1a2b3c4d-17-0"))),
        Arguments.of(
            "vLLM bench ID in an OTLP span",
            "bench-1a2b3c4d-17",
            keys(ServerEvents.span("cmpl-bench-1a2b3c4d-17-0", 8))),
        // vLLM >= 2025-12-23 adds an 8-hex engine suffix to engine-side IDs (abort lines)
        Arguments.of(
            "engine suffix on an abort",
            "job-7",
            keys(
                ServerEvents.received("chatcmpl-job-7"),
                ServerEvents.aborted("chatcmpl-job-7-1a2b3c4d"))),
        // n > 1: V1 children 0_chatcmpl-<id>, 1_chatcmpl-<id> (spans before 2025-12-23)
        Arguments.of(
            "n > 1 children",
            "client-9",
            keys(
                ServerEvents.span("0_chatcmpl-client-9", 4),
                ServerEvents.span("1_chatcmpl-client-9", 4))),
        // old chat IDs: chat-<32 hex> (2024-07-23 to 2024-10-22), cmpl-<32 hex> before
        Arguments.of(
            "old chat-<32 hex>",
            "00112233445566778899aabbccddeeff",
            keys(ServerEvents.received("chat-00112233445566778899aabbccddeeff"))),
        // SGLang: the body field rid is the request ID as is
        Arguments.of(
            "SGLang rid sent by the client",
            "client-rid-42",
            List.of(RequestKeys.normalize("client-rid-42"))),
        Arguments.of(
            "SGLang generated rid",
            "4e1f5c8a9b7d4c2e8f0a1b2c3d4e5f60",
            List.of(RequestKeys.normalize("4e1f5c8a9b7d4c2e8f0a1b2c3d4e5f60"))),
        // TensorRT-LLM: the LLM-API client id is a per-process counter
        Arguments.of("TensorRT-LLM client id", "17", List.of(RequestKeys.normalize("17"))));
  }

  private static List<String> keys(String... lines) {
    List<EngineEvent> events = ServerEvents.parseVllm(lines);
    return events.stream().map(RequestKeyFormsTest::key).toList();
  }

  private static String key(EngineEvent event) {
    if (event instanceof RequestArrived) {
      return ((RequestArrived) event).requestKey();
    }
    if (event instanceof RequestTiming) {
      return ((RequestTiming) event).requestKey();
    }
    if (event instanceof RequestAborted) {
      return ((RequestAborted) event).requestKey();
    }
    throw new IllegalStateException("unhandled event: " + event);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("forms")
  void theClientsIdAndTheServersRecordsShareOneKey(
      String form, String clientId, List<String> serverKeys) {
    assertThat(serverKeys)
        .isNotEmpty()
        .allSatisfy(key -> assertThat(key).isEqualTo(RequestKeys.normalize(clientId)));
  }

  static Stream<Arguments> responseIds() {
    return Stream.of(
        // GuideLLM response_id / GenAI-Perf SSE id: the server's own response id
        Arguments.of("chatcmpl-a269fdcb7c6ce890", "chatcmpl-a269fdcb7c6ce890"),
        Arguments.of("chatcmpl-client-42", "chatcmpl-client-42"),
        Arguments.of("cmpl-5f0c0a6e3a1b4a7c", "cmpl-5f0c0a6e3a1b4a7c-0"),
        // a completions response echoing a vllm bench ID: the base ends in digits
        Arguments.of("cmpl-bench-1a2b3c4d-17", "cmpl-bench-1a2b3c4d-17-0"),
        // chat before 2024-07-23 answered cmpl-<32 hex> and logged the same
        Arguments.of(
            "cmpl-00112233445566778899aabbccddeeff", "cmpl-00112233445566778899aabbccddeeff"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("responseIds")
  void aResponseIdKeysLikeTheRequestTheServerLogged(String responseId, String loggedId) {
    assertThat(ResponseIds.key(responseId)).isEqualTo(keys(ServerEvents.received(loggedId)).get(0));
  }

  @org.junit.jupiter.api.Test
  void normalizeAloneWouldCutAResponseIdWhoseBaseEndsInDigits() {
    // why ResponseIds exists: cmpl-<base> from a response has no prompt index to strip
    assertThat(RequestKeys.normalize("cmpl-bench-1a2b3c4d-17")).isEqualTo("bench-1a2b3c4d");
    assertThat(ResponseIds.key("cmpl-bench-1a2b3c4d-17")).isEqualTo("bench-1a2b3c4d-17");
  }
}
