package dev.tokentrace.parse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.event.json.EventJson;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Prompt text in every place an engine's log can carry it: request lines, errors that print the
 * request, tracebacks that quote it, free-text warnings, and prompts printed over several lines
 * (raw, and with vLLM's repeated header). The lines are composed by us to the documented formats
 * (docs/privacy.md); the marker word must reach no event and no rejection, and every line is still
 * accounted for.
 */
final class MultiLinePromptTest {
  static final String MARKER = "zebracorn";

  static Stream<Arguments> logs() {
    return Stream.of(
        Arguments.of(
            Engine.VLLM,
            List.of(
                "INFO 03-02 09:00:00 [logger.py:39] Received request r1: prompt: 'say "
                    + MARKER
                    + "', params: SamplingParams(n=1, max_tokens=5), prompt_token_ids: [1, 2],"
                    + " lora_request: None.",
                "WARNING 03-02 09:00:01 [serving.py:10] input text 'first " + MARKER + " line",
                "second " + MARKER + " line",
                "third " + MARKER + "' is too long",
                "ERROR 03-02 09:00:02 [serving_chat.py:200] Error in preprocessing prompt inputs:"
                    + " {'messages': [{'role': 'user', 'content': 'hi "
                    + MARKER
                    + "'}]}",
                "ERROR 03-02 09:00:03 [engine.py:20] request failed\r",
                "ERROR 03-02 09:00:03 [engine.py:20] Traceback (most recent call last):\r",
                "ERROR 03-02 09:00:03 [engine.py:20]   File \"engine.py\", line 20, in run\r",
                "ERROR 03-02 09:00:03 [engine.py:20] ValueError: bad request {'prompt': '"
                    + MARKER
                    + "'}",
                "WARNING 03-02 09:00:04 [serving.py:11] input text 'one " + MARKER + "\r",
                "WARNING 03-02 09:00:04 [serving.py:11] two " + MARKER + "' is too long",
                "INFO 03-02 09:00:05 [logger.py:39] Received request r2: prompt: 'ok', params:"
                    + " SamplingParams(n=1, max_tokens=5), prompt_token_ids: [1],"
                    + " lora_request: None.")),
        Arguments.of(
            Engine.SGLANG,
            List.of(
                "[2026-03-02 09:00:00] Receive: obj=GenerateReqInput(rid='a', text='"
                    + MARKER
                    + "', sampling_params={'max_new_tokens': 5})",
                "[2026-03-02 09:00:01] Scheduler hit an exception: Traceback (most recent call"
                    + " last):",
                "  File \"scheduler.py\", line 1, in run",
                "ValueError: bad request {'text': '" + MARKER + "'}",
                "[2026-03-02 09:00:02] input text 'first " + MARKER,
                "continued " + MARKER + "' is too long",
                "[2026-03-02 09:00:03] Receive: obj=GenerateReqInput(rid='b', text='ok',"
                    + " sampling_params={'max_new_tokens': 5})")),
        Arguments.of(
            Engine.TRTLLM,
            List.of(
                "[TensorRT-LLM][ERROR] Encountered an error: input text '" + MARKER,
                "more " + MARKER + "' rejected",
                "[TensorRT-LLM][WARNING] bad request {'prompt': '" + MARKER + "'}",
                "[12/01/2026-09:00:00] [TRT-LLM] [E] Error: {'messages': [{'role': 'user',"
                    + " 'content': '"
                    + MARKER
                    + "'}]}",
                "[TensorRT-LLM][INFO] Set logger level to INFO")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("logs")
  void noPromptWordReachesAnEventOrARejection(Engine engine, List<String> lines) {
    LineParser parser = Parsers.create(engine, ParseSettings.of("i-0", 2026));
    Collected collected = new Collected();
    long number = 1;
    for (String line : lines) {
      parser.parse(line, new SourcePosition("a.log", number++, 0), collected);
    }
    parser.finish(collected);

    assertThat(collected.texts).allSatisfy(text -> assertThat(text).doesNotContain(MARKER));
    assertThat(collected.texts).anySatisfy(text -> assertThat(text).contains("<redacted "));
    assertThat(collected.outcomes).isGreaterThanOrEqualTo(lines.size());
  }

  /** Every event as JSON, every rejection's reason and excerpt. */
  private static final class Collected implements ParseOutput {
    final List<String> texts = new ArrayList<>();
    long outcomes;

    @Override
    public void event(EngineEvent event) {
      texts.add(EventJson.write(event));
      outcomes++;
    }

    @Override
    public void ignored(SourcePosition position, String rule) {
      texts.add(rule);
      outcomes++;
    }

    @Override
    public void rejected(Rejection rejection) {
      texts.add(rejection.reason() + " | " + rejection.excerpt());
      outcomes++;
    }
  }
}
