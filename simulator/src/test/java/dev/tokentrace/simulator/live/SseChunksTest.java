package dev.tokentrace.simulator.live;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.simulator.output.Api;
import org.junit.jupiter.api.Test;

final class SseChunksTest {
  @Test
  void completionChunksCarryTextAndEndWithALengthFinish() {
    SseChunks chunks = new SseChunks(Api.COMPLETIONS, "cmpl-a");

    assertThat(chunks.token(1))
        .startsWith("data: {\"id\":\"cmpl-a\"")
        .contains("\"text\":\"tok\"")
        .endsWith("}\n\n");
    assertThat(chunks.token(2)).contains("\"text\":\" tok\"");
    assertThat(chunks.finish()).contains("\"text\":\"\"").contains("\"finish_reason\":\"length\"");
  }

  @Test
  void chatStartsWithARoleChunkWithoutContent() {
    SseChunks chunks = new SseChunks(Api.CHAT, "chatcmpl-a");

    assertThat(chunks.role()).contains("\"delta\":{\"role\":\"assistant\",\"content\":\"\"}");
    assertThat(chunks.token(1)).contains("\"delta\":{\"content\":\"tok\"}");
  }

  @Test
  void usageChunkHasNoChoices() {
    assertThat(new SseChunks(Api.CHAT, "c").usage(3, 5))
        .contains("\"choices\":[]")
        .contains("\"completion_tokens\":5,\"total_tokens\":8");
  }

  @Test
  void errorMessagesAreJsonEscaped() {
    assertThat(SseChunks.error(400, "bad \"id\"")).contains("\"message\":\"bad \\\"id\\\"\"");
  }
}
