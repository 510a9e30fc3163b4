package dev.tokentrace.parse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.SourcePosition;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

final class ParsersTest {
  private static final ParseSettings SETTINGS = ParseSettings.of("test", 2026);

  @Test
  void detectsVllmFromStatsAndRequestLines() {
    List<String> head =
        List.of(
            "(APIServer pid=41) INFO 03-02 10:00:00 [api_server.py:1900] vLLM API server version"
                + " 0.11.0",
            "(APIServer pid=41) INFO 03-02 10:00:10 [loggers.py:123] Engine 000: Avg prompt"
                + " throughput: 120.5 tokens/s, Avg generation throughput: 33.0 tokens/s, Running: 2"
                + " reqs, Waiting: 0 reqs, GPU KV cache usage: 1.5%, Prefix cache hit rate: 0.0%");
    assertThat(Parsers.detect(head, SETTINGS).engine()).contains(Engine.VLLM);
  }

  @Test
  void detectsSglangFromBatchLines() {
    List<String> head =
        List.of(
            "[2026-03-02 10:00:00 TP0] Decode batch. #running-req: 4, #token: 2048, token usage:"
                + " 0.02, gen throughput (token/s): 150.25, #queue-req: 0, ");
    assertThat(Parsers.detect(head, SETTINGS).engine()).contains(Engine.SGLANG);
  }

  @Test
  void detectsNothingInJunkAndSaysWhatWasTried() {
    Parsers.Detection detection =
        Parsers.detect(List.of("hello world", "this is not a log"), SETTINGS);
    assertThat(detection.engine()).isEmpty();
    assertThat(detection.describe())
        .startsWith("vllm: 0 events, ")
        .contains("sglang: 0 events")
        .contains("trtllm: 0 events");
  }

  @Test
  void emptyHeadDetectsNothing() {
    assertThat(Parsers.detect(List.of(), SETTINGS).engine()).isEmpty();
  }

  @Test
  void aParserBugBecomesARejectionNotAnException() {
    LineParser buggy =
        (line, position, sink) -> {
          throw new IllegalStateException("boom");
        };
    List<Rejection> rejections = new ArrayList<>();
    ParseOutput sink =
        new ParseOutput() {
          @Override
          public void event(EngineEvent event) {}

          @Override
          public void ignored(SourcePosition position, String rule) {}

          @Override
          public void rejected(Rejection rejection) {
            rejections.add(rejection);
          }
        };
    Parsers.safe(Engine.VLLM, buggy).parse("x", new SourcePosition("f.log", 3, 10), sink);
    assertThat(rejections)
        .singleElement()
        .satisfies(
            rejection -> {
              assertThat(rejection.reason()).isEqualTo("parser error: IllegalStateException: boom");
              assertThat(rejection.message())
                  .isEqualTo("f.log:3: vllm: parser error: IllegalStateException: boom");
            });
  }
}
