package dev.tokentrace.simulator.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

final class CompletionRequestTest {
  private static CompletionRequest parse(String json, boolean chat) {
    return CompletionRequest.parse(json.getBytes(StandardCharsets.UTF_8), chat);
  }

  @Test
  void countsOneTokenPerWordOfTheCompletionPrompt() {
    CompletionRequest request =
        parse(
            "{\"prompt\":\"  one two\\nthree \",\"max_tokens\":7,\"stream\":true,"
                + "\"stream_options\":{\"include_usage\":true}}",
            false);

    assertThat(request).isEqualTo(new CompletionRequest(3, 7, true, true, null));
  }

  @Test
  void sumsTheWordsOfEveryChatMessageAndReadsSglangsRid() {
    CompletionRequest request =
        parse(
            "{\"messages\":[{\"role\":\"system\",\"content\":\"be brief\"},"
                + "{\"role\":\"user\",\"content\":\"hi there you\"}],"
                + "\"max_completion_tokens\":4,\"rid\":\"r-1\"}",
            true);

    assertThat(request).isEqualTo(new CompletionRequest(5, 4, false, false, "r-1"));
  }

  @Test
  void defaultsMaxTokensLikeOpenAi() {
    assertThat(parse("{\"prompt\":\"x\"}", false).maxTokens())
        .isEqualTo(CompletionRequest.DEFAULT_MAX_TOKENS);
  }

  @Test
  void refusesBodiesTheServerCannotServe() {
    assertThatThrownBy(() -> parse("not json", false)).hasMessage("body is not JSON");
    assertThatThrownBy(() -> parse("[]", false)).hasMessage("body is not a JSON object");
    assertThatThrownBy(() -> parse("{\"prompt\":[1,2]}", false))
        .hasMessage("prompt must be a string");
    assertThatThrownBy(() -> parse("{\"prompt\":\"  \"}", false))
        .hasMessage("prompt must not be empty");
    assertThatThrownBy(() -> parse("{\"messages\":[]}", true))
        .hasMessage("messages must be a non-empty array");
    assertThatThrownBy(() -> parse("{\"prompt\":\"x\",\"max_tokens\":\"ten\"}", false))
        .hasMessage("max_tokens must be an integer");
    assertThatThrownBy(() -> parse("{\"prompt\":\"x\",\"max_tokens\":0}", false))
        .hasMessage("max_tokens must be >= 1: 0");
  }
}
