package dev.tokentrace.parse.vllm;

import static dev.tokentrace.parse.vllm.VllmLines.API;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.event.RequestAborted;
import dev.tokentrace.event.RequestArrived;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Engine-suffix and child IDs (docs/formats/vllm.md#request-ids) through the parser. */
final class RequestIdsTest {
  private static String received(String id) {
    return API.replace("loggers.py:271", "logger.py:51")
        + "Received request "
        + id
        + ": params: SamplingParams(n=2, max_tokens=8), lora_request: None.";
  }

  private static List<List<String>> aborts(RecordingSink sink) {
    return sink.events.stream()
        .filter(RequestAborted.class::isInstance)
        .map(RequestAborted.class::cast)
        .map(aborted -> List.of(aborted.requestId(), aborted.requestKey()))
        .toList();
  }

  @Test
  void stripsTheEngineSuffixOfChildrenOfAReceivedRequest() {
    RecordingSink sink =
        RecordingSink.parse(
            received("chatcmpl-abc"),
            API + "Added request 0_chatcmpl-abc-1a2b3c4d.",
            API + "Added request 1_chatcmpl-abc-1a2b3c4d.",
            API + "Aborted request(s) 0_chatcmpl-abc-1a2b3c4d,1_chatcmpl-abc-1a2b3c4d.");

    assertThat(aborts(sink))
        .containsExactly(
            List.of("0_chatcmpl-abc-1a2b3c4d", "abc"), List.of("1_chatcmpl-abc-1a2b3c4d", "abc"));
    assertThat(sink.rules()).containsExactly("vllm: added request", "vllm: added request");
  }

  private static List<List<String>> arrivals(RecordingSink sink) {
    return sink.events.stream()
        .filter(RequestArrived.class::isInstance)
        .map(RequestArrived.class::cast)
        .map(arrived -> List.of(arrived.requestId(), arrived.requestKey()))
        .toList();
  }

  /** docs/formats/vllm-wild.md#added-request: the admitted ID is arrival evidence once per key. */
  @Test
  void anAddedRequestWithoutAReceivedLineIsTheArrivalOnce() {
    RecordingSink sink =
        RecordingSink.parse(
            received("chatcmpl-seen"),
            API + "Added request chatcmpl-seen-1a2b3c4d.",
            API + "Added request chatcmpl-excerpt-0badcafe.",
            API + "Added request 0_chatcmpl-kids-0badcafe.",
            API + "Added request 1_chatcmpl-kids-0badcafe.",
            API + "Added request job-7.");

    assertThat(arrivals(sink))
        .containsExactly(
            List.of("chatcmpl-seen", "seen"),
            List.of("chatcmpl-excerpt-0badcafe", "excerpt"),
            List.of("0_chatcmpl-kids-0badcafe", "kids"),
            List.of("job-7", "job-7"));
    assertThat(sink.rules()).containsExactly("vllm: added request", "vllm: added request");
  }

  @Test
  void neverStripsOnAServerSeenToAddNoSuffix() {
    RecordingSink sink =
        RecordingSink.parse(
            received("chatcmpl-job-deadbeef"),
            API + "Added request chatcmpl-job-deadbeef.",
            API + "Request chatcmpl-job-deadbeef aborted.",
            API + "Request chatcmpl-other-0badcafe failed (engine dead).");

    assertThat(aborts(sink))
        .containsExactly(
            List.of("chatcmpl-job-deadbeef", "job-deadbeef"),
            List.of("chatcmpl-other-0badcafe", "other-0badcafe"));
  }

  @Test
  void stripsUnseenIdsOnceTheServerIsKnownToAddSuffixes() {
    RecordingSink sink =
        RecordingSink.parse(
            received("chatcmpl-a"),
            API + "Added request chatcmpl-a-11223344.",
            API + "Aborted request(s) chatcmpl-b-55667788.");

    assertThat(aborts(sink)).containsExactly(List.of("chatcmpl-b-55667788", "b"));
  }

  @Test
  void keepsASuffixLikeEndingWhenNothingIsKnown() {
    RecordingSink sink = RecordingSink.parse(API + "Aborted request(s) chatcmpl-c-55667788.");

    assertThat(aborts(sink)).containsExactly(List.of("chatcmpl-c-55667788", "c-55667788"));
  }

  @Test
  void neverStripsReceivedIds() {
    RecordingSink sink = RecordingSink.parse(received("chatcmpl-client-0a1b2c3d"));

    assertThat(sink.eventBodies())
        .containsExactly(
            RecordingSink.json(
                VllmLines.body(
                    "request_arrived",
                    "'request_id':'chatcmpl-client-0a1b2c3d','request_key':'client-0a1b2c3d',"
                        + "'max_tokens':8")));
  }

  @Test
  void stripsTheSuffixOfACompletionPromptId() {
    RecordingSink sink =
        RecordingSink.parse(
            received("cmpl-batch-1"),
            ENGINE_REJECT + "cmpl-batch-1-0f0f0f0f (server shutting down)");

    assertThat(aborts(sink)).containsExactly(List.of("cmpl-batch-1-0f0f0f0f", "batch"));
  }

  private static final String ENGINE_REJECT =
      "(EngineCore_DP0 pid=3812) INFO 05-19 10:13:11 [core.py:1020] Rejecting request ";
}
