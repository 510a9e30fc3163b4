package dev.tokentrace.parse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.ServerNotice;
import dev.tokentrace.event.SourcePosition;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * C++ exceptions print {@code terminate called after throwing an instance of '<type>'} and {@code
 * what(): <message>} without any logger header (docs/formats/layouts.md#cpp-what): after an engine
 * line, in any layout, they end up in one error notice and are never rejected. Lines composed by
 * us.
 */
final class CppWhatLinesTest {
  private static final String TERMINATE =
      "terminate called after throwing an instance of 'std::runtime_error'";
  private static final String WHAT = "  what():  CUDA runtime error in cudaMalloc: out of memory";

  static Stream<Arguments> engines() {
    return Stream.of(
        Arguments.of(Engine.VLLM, "INFO 01-02 03:04:05 [core.py:100] Engine core started."),
        Arguments.of(Engine.SGLANG, "[2026-01-02 03:04:05] Load weight begin. avail mem=78.52 GB"),
        Arguments.of(Engine.TRTLLM, "[01/02/2026-03:04:05] [TRT-LLM] [I] MPI size: 2, rank: 0"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("engines")
  void whatLinesEndUpInOneErrorNoticeAndAreNeverRejected(Engine engine, String engineLine) {
    for (String prefix : List.of("", "2026-01-02T03:04:06.000000Z ERROR main.run: ")) {
      Outcome outcome = parse(engine, engineLine, prefix + TERMINATE, WHAT);
      assertThat(outcome.rejected).as("%s with prefix '%s'", engine, prefix).isEmpty();
      List<ServerNotice> errors = new ArrayList<>();
      for (EngineEvent event : outcome.events) {
        if (event instanceof ServerNotice notice && notice.kind() != ServerNotice.Kind.STARTUP) {
          errors.add(notice);
        }
      }
      System.out.println(
          engine + " '" + prefix + "': " + outcome.events + " ignored=" + outcome.ignored);
      assertThat(errors).as("%s with prefix '%s': %s", engine, prefix, outcome.events).hasSize(1);
      assertThat(errors.get(0).message()).contains("out of memory");
    }
  }

  private record Outcome(List<EngineEvent> events, List<String> ignored, List<String> rejected) {}

  private static Outcome parse(Engine engine, String... lines) {
    Outcome outcome = new Outcome(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
    ParseOutput sink =
        new ParseOutput() {
          @Override
          public void event(EngineEvent event) {
            outcome.events.add(event);
          }

          @Override
          public void ignored(SourcePosition position, String rule) {
            outcome.ignored.add(rule);
          }

          @Override
          public void rejected(Rejection rejection) {
            outcome.rejected.add(rejection.reason());
          }
        };
    LineParser parser = Parsers.create(engine, ParseSettings.of("what", 2026));
    long number = 1;
    for (String line : lines) {
      parser.parse(line, new SourcePosition("f.log", number++, 0), sink);
    }
    parser.finish(sink);
    return outcome;
  }
}
