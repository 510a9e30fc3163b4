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
  void countsTheTextPartsOfContentPartArrays() {
    CompletionRequest request =
        parse(
            "{\"messages\":[{\"role\":\"system\",\"content\":\"be brief\"},"
                + "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"hi there\"},"
                + "{\"type\":\"image_url\",\"image_url\":{\"url\":\"data:,\"}},"
                + "{\"type\":\"text\",\"text\":\"you\"}]}],\"max_tokens\":4}",
            true);

    assertThat(request).isEqualTo(new CompletionRequest(5, 4, false, false, null));
  }

  @Test
  void refusesContentPartsItCannotRead() {
    assertThatThrownBy(() -> parse("{\"messages\":[{\"role\":\"user\",\"content\":42}]}", true))
        .hasMessage("message content must be a string or an array of content parts");
    assertThatThrownBy(
            () -> parse("{\"messages\":[{\"role\":\"user\",\"content\":[\"x\"]}]}", true))
        .hasMessage("content part must be an object with a type");
    assertThatThrownBy(
            () ->
                parse(
                    "{\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\"}]}]}", true))
        .hasMessage("text content part must have a string text");
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
