package dev.tokentrace.event;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

final class RequestKeysTest {
  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    // vLLM chat, client X-Request-Id honoured since ~v0.6.5 (docs/formats/vllm.md#request-ids)
    "chatcmpl-client-42, client-42",
    "chatcmpl-a269fdcb7c6ce890, a269fdcb7c6ce890",
    // completions: one engine request per prompt, -<i> appended
    "cmpl-bench-1a2b3c4d-17-0, bench-1a2b3c4d-17",
    "cmpl-5f0c0a6e3a1b4a7c9d2e8f1a2b3c4d5e-3, 5f0c0a6e3a1b4a7c9d2e8f1a2b3c4d5e",
    // chat before 2024-07-23 used cmpl- with no index
    "cmpl-5f0c0a6e3a1b4a7c9d2e8f1a2b3c4d5e, 5f0c0a6e3a1b4a7c9d2e8f1a2b3c4d5e",
    // chat between 2024-07-23 and 2024-10-22
    "chat-5f0c0a6e3a1b4a7c9d2e8f1a2b3c4d5e, 5f0c0a6e3a1b4a7c9d2e8f1a2b3c4d5e",
    // V1 n>1 children
    "0_chatcmpl-client-42, client-42",
    "13_chatcmpl-c78d39a6, c78d39a6",
    // client-side IDs pass through unchanged
    "7609a2e7-aa53-4ab1-98f4-f35ecafefd25, 7609a2e7-aa53-4ab1-98f4-f35ecafefd25",
    "bench-1a2b3c4d-17, bench-1a2b3c4d-17",
    "3_foo, 3_foo",
    "chat-5, chat-5",
    "sglang-rid-0001, sglang-rid-0001",
    "'  padded ', padded",
  })
  void normalizes(String id, String key) {
    assertThat(RequestKeys.normalize(id)).isEqualTo(key);
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "chatcmpl-a269fdcb7c6ce890-a8a65d16, chatcmpl-a269fdcb7c6ce890",
    "cmpl-abc-0-0011beef, cmpl-abc-0",
    "1_chatcmpl-abc-deadbeef, 1_chatcmpl-abc",
    "chatcmpl-abc, chatcmpl-abc",
    "chatcmpl-abc-DEADBEEF, chatcmpl-abc-DEADBEEF",
    "cmpl-abc-0, cmpl-abc-0",
  })
  void stripsTheEngineSuffix(String id, String stripped) {
    assertThat(RequestKeys.withoutEngineSuffix(id)).isEqualTo(stripped);
    assertThat(RequestKeys.hasEngineSuffix(id)).isEqualTo(!id.equals(stripped));
  }

  @ParameterizedTest
  @CsvSource({
    "chatcmpl-a269fdcb7c6ce890-a8a65d16, a269fdcb7c6ce890",
    "cmpl-bench-1a2b3c4d-17-0-0011beef, bench-1a2b3c4d-17",
    "2_chatcmpl-client-42-deadbeef, client-42",
  })
  void engineSideIdsNormalizeAfterSuffixStripping(String engineId, String key) {
    assertThat(RequestKeys.normalize(RequestKeys.withoutEngineSuffix(engineId))).isEqualTo(key);
  }
}
