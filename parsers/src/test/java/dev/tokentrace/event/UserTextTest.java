package dev.tokentrace.event;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

final class UserTextTest {
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        // vLLM Received request: the prompt repr, then the params that stay readable
        "Received request cmpl-1: prompt: 'hi there', params: SamplingParams(n=1)"
            + " | Received request cmpl-1: prompt: <redacted 8 chars>, params: SamplingParams(n=1)",
        // vLLM DEBUG details line since 2025-10-13: the token ids are the prompt too
        "Request r1 details: prompt: 'x', prompt_token_ids: [1, 2], prompt_embeds shape: None."
            + " | Request r1 details: prompt: <redacted 1 chars>, prompt_token_ids: <redacted 6"
            + " chars>, prompt_embeds shape: None.",
        // SGLang repr, unquoted keys (v0.4.1) and JSON renderings
        "Receive: obj=GenerateReqInput(rid='a', text='q', input_ids=[1, 2])"
            + " | Receive: obj=GenerateReqInput(rid='a', text=<redacted 1 chars>, input_ids="
            + "<redacted 6 chars>)",
        "Finish: obj={rid: \"a\", text: \"q\"}, out={text: \"zz\", meta_info: {id: \"a\"}}"
            + " | Finish: obj={rid: \"a\", text: <redacted 1 chars>}, out={text: <redacted 2 chars>,"
            + " meta_info: {id: <redacted 1 chars>}}",
        // vLLM preprocessing error: the message list keeps its shape, no value survives
        "Error in preprocessing prompt inputs: {'messages': [{'role': 'user', 'content': 'hi'}]}"
            + " | Error in preprocessing prompt inputs: {'messages': [{'role': <redacted 4 chars>,"
            + " 'content': <redacted 2 chars>}]}",
        // a JSON body; an escaped quote does not end the string
        "{\"rid\": \"a\", \"prompt\": \"say \\\"hi\\\"\", \"max_tokens\": 5}"
            + " | {\"rid\": \"a\", \"prompt\": <redacted 10 chars>, \"max_tokens\": 5}",
        // free-text warnings print the text raw: up to the last quote
        "Token indices: input text 'it's long' is too long"
            + " | Token indices: input text <redacted 9 chars> is too long",
        // pydantic validation errors quote the input
        "1 validation error: [type=string_type, input_value='secret words', input_type=list]"
            + " | 1 validation error: [type=string_type, input_value=<redacted 12 chars>,"
            + " input_type=list]",
        // a string left open runs to the end
        "Received request r2: prompt: 'first line of a prompt"
            + " | Received request r2: prompt: <redacted 22 chars>",
      })
  void replacesEveryUserTextValueAndKeepsTheMessage(String line, String expected) {
    assertThat(UserText.redact(line)).isEqualTo(expected);
    assertThat(UserText.redact(expected)).as("idempotent").isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "INFO 03-02 09:00:00 metrics.py:1] Avg prompt throughput: 10.0 tokens/s",
        "Prefill batch. #new-seq: 1, #new-token: 64, context=4096, timeout=3",
        "max_prompt_len: 4096, prompt_logprobs=None, about: x",
        "[TensorRT-LLM][INFO] Set logger level to INFO",
        "Request timed out: 30 s, output: 5 tokens",
        "SamplingParams(n=1, prompt=None, text=None)",
      })
  void leavesLinesWithoutUserTextAlone(String line) {
    assertThat(UserText.redact(line)).isSameAs(line);
    assertThat(UserText.contains(line)).isFalse();
  }

  @Test
  void saysWhichQuoteALineLeavesOpen() {
    assertThat(UserText.unterminatedQuote("WARNING x: input text 'first line")).isEqualTo('\'');
    assertThat(UserText.unterminatedQuote("Receive: obj={'text': \"a")).isEqualTo('"');
    assertThat(UserText.unterminatedQuote("Receive: obj={'text': 'a'}")).isEqualTo((char) 0);
    assertThat(UserText.unterminatedQuote("it's a log line")).isEqualTo((char) 0);
  }
}
