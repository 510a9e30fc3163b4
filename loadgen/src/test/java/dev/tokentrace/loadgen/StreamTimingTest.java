package dev.tokentrace.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

final class StreamTimingTest {
  private final StreamTiming timing = new StreamTiming();

  private static String completion(String text) {
    return "{\"id\":\"cmpl-x\",\"object\":\"text_completion\",\"choices\":[{\"index\":0,\"text\":\""
        + text
        + "\",\"finish_reason\":null}]}";
  }

  private static String chat(String delta) {
    return "{\"id\":\"chatcmpl-x\",\"choices\":[{\"index\":0,\"delta\":" + delta + "}]}";
  }

  @Test
  void firstTokenIsTheFirstCompletionChunkWithText() {
    timing.data(completion(""), 10);
    timing.data(completion("Hi"), 20);
    timing.data(completion(" there"), 35);
    timing.data(StreamTiming.DONE, 40);

    assertThat(timing.firstTokenNanos()).isEqualTo(20);
    assertThat(timing.lastTokenNanos()).isEqualTo(35);
    assertThat(timing.tokenChunks()).isEqualTo(2);
    assertThat(timing.done()).isTrue();
  }

  @Test
  void chatRoleOnlyAndEmptyDeltasAreNotTokens() {
    timing.data(chat("{\"role\":\"assistant\",\"content\":\"\"}"), 5);
    timing.data(chat("{}"), 6);
    timing.data(chat("{\"content\":null}"), 7);
    timing.data(chat("{\"content\":\"A\"}"), 8);
    timing.data("{\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"length\"}]}", 9);

    assertThat(timing.firstTokenNanos()).isEqualTo(8);
    assertThat(timing.tokenChunks()).isEqualTo(1);
  }

  @Test
  void reasoningContentCountsAsOutput() {
    timing.data(chat("{\"reasoning_content\":\"think\"}"), 3);

    assertThat(timing.firstTokenNanos()).isEqualTo(3);
  }

  @Test
  void usageChunkGivesTheTokenCountAndIsNotAToken() {
    timing.data(completion("a"), 1);
    timing.data(completion("b"), 2);
    timing.data("{\"choices\":[],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":5}}", 3);

    assertThat(timing.outputTokens()).isEqualTo(5);
    assertThat(timing.tokenChunks()).isEqualTo(2);
    assertThat(timing.lastTokenNanos()).isEqualTo(2);
  }

  @Test
  void withoutUsageTheTokenCountIsTheContentChunkCount() {
    timing.data(completion("a"), 1);
    timing.data(completion("b"), 2);

    assertThat(timing.usageTokens()).isNull();
    assertThat(timing.outputTokens()).isEqualTo(2);
  }

  @Test
  void interTokenLatenciesAreGapsBetweenContentChunks() {
    timing.data(completion("a"), 1_000_000);
    timing.data(completion(""), 1_500_000);
    timing.data(completion("b"), 3_000_000);
    timing.data(completion("c"), 3_500_000);

    assertThat(timing.itlsMs()).containsExactly(2.0, 0.5);
  }

  @Test
  void anErrorEventIsRecordedWithoutItsText() {
    timing.data("{\"error\":{\"message\":\"prompt 'secret' too long\"}}", 1);

    assertThat(timing.error()).isEqualTo("server error in stream").doesNotContain("secret");
  }

  @Test
  void malformedEventsAreCountedNotTokens() {
    timing.data("{not json", 1);
    timing.data("[1,2]", 2);

    assertThat(timing.badEvents()).isEqualTo(2);
    assertThat(timing.tokenChunks()).isZero();
    assertThat(timing.done()).isFalse();
  }
}
