package dev.tokentrace.parse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.event.SourcePosition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

final class UserTextTest {
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        // vLLM Received request, every generation keeps the prompt after 'prompt: '
        "INFO 03-02 09:00:00 logger.py:39] Received request cmpl-1: prompt: 'hi there', params: x"
            + " | INFO 03-02 09:00:00 logger.py:39] Received request cmpl-1: prompt:"
            + "[user text removed]",
        // vLLM DEBUG details line since 2025-10-13
        "DEBUG 03-02 09:00:00 [logger.py:50] Request r1 details: prompt: 'x', prompt_token_ids: [1]"
            + " | DEBUG 03-02 09:00:00 [logger.py:50] Request r1 details: prompt:[user text removed]",
        // SGLang repr, unquoted (v0.4.1) and JSON renderings
        "[2026-03-02 09:00:00] Receive: obj=GenerateReqInput(rid='a', text='q'"
            + " | [2026-03-02 09:00:00] Receive: obj=GenerateReqInput(rid='a', text=[user text"
            + " removed]",
        "[2024-12-30 09:00:00] Finish: obj={rid: \"a\", text: \"q\"}, out={text: \"z\"}"
            + " | [2024-12-30 09:00:00] Finish: obj={rid: \"a\", text:[user text removed]",
        "Receive: obj=GenerateReqInput(rid='a', input_ids=[1, 2])"
            + " | Receive: obj=GenerateReqInput(rid='a', input_ids=[user text removed]",
      })
  void removesEverythingFromTheFirstUserTextField(String line, String expected) {
    assertThat(UserText.redact(line)).isEqualTo(expected);
  }

  @Test
  void cutsAJsonRequestLogAtItsFirstContentKey() {
    String line = "{\"rid\": \"a\", \"messages\": [{\"content\": \"q\"}]}";

    assertThat(UserText.redact(line))
        .isEqualTo("{\"rid\": \"a\", \"messages\":" + UserText.REMOVED);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "INFO 03-02 09:00:00 metrics.py:1] Avg prompt throughput: 10.0 tokens/s",
        "Prefill batch. #new-seq: 1, #new-token: 64, context=4096, timeout=3",
        "max_prompt_len: 4096, prompt_logprobs=None, about: x",
        "[TensorRT-LLM][INFO] Set logger level to INFO",
      })
  void leavesLinesWithoutUserTextAlone(String line) {
    assertThat(UserText.redact(line)).isSameAs(line);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {"Received request r1: prompt: 'a secret' | secret"})
  void keepsUserTextOutOfEveryRejectionExcerpt(String line, String secret) {
    Rejection rejection = Rejection.of(new SourcePosition("a.log", 1, 0), null, "bad", line);

    assertThat(rejection.excerpt()).doesNotContain(secret).endsWith(UserText.REMOVED);
  }
}
