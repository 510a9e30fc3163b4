package dev.tokentrace.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.json.EventJson;
import dev.tokentrace.ingest.tail.SourceParser;
import dev.tokentrace.ingest.tail.TailOutput;
import dev.tokentrace.parse.LineSplitter;
import dev.tokentrace.parse.ParseSettings;
import dev.tokentrace.parse.Parsers;
import dev.tokentrace.parse.Rejection;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every checked-in sample scenario parses into exactly its {@code expected/events.jsonl}, with no
 * rejection. {@code samples/regenerate.sh} rewrites the expected files; review the diff like code.
 */
final class GoldenSamplesTest {
  static final Path SAMPLES = Path.of("..", "samples");

  static Stream<SampleScenarios.Scenario> scenarios() {
    return SampleScenarios.find(SAMPLES).stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("scenarios")
  void parsesIntoTheExpectedEvents(SampleScenarios.Scenario scenario) throws IOException {
    ParseSettings settings =
        new ParseSettings(
            scenario.id(),
            ZoneId.of(scenario.properties().getProperty("zone", "UTC")),
            Integer.parseInt(scenario.properties().getProperty("year")));
    List<String> actual = new ArrayList<>();
    List<String> rejections = new ArrayList<>();
    TailOutput sink =
        new TailOutput() {
          @Override
          public void event(dev.tokentrace.event.EngineEvent event) {
            actual.add(EventJson.write(event));
          }

          @Override
          public void rejected(Rejection rejection, byte[] rawLine) {
            rejections.add(rejection.message());
          }
        };
    for (Path file : scenario.serverFiles()) {
      // events name their source relative to the scenario directory, as regenerate.sh runs parse
      String relative = scenario.dir().relativize(file).toString();
      new SourceParser(
              relative, scenario.engine(), Parsers.create(scenario.engine(), settings), sink)
          .readFile(file, LineSplitter.DEFAULT_MAX_LINE_BYTES);
    }
    assertThat(rejections).as("rejections").isEmpty();
    Path expectedFile = scenario.dir().resolve("expected").resolve("events.jsonl");
    List<String> expected = Files.readAllLines(expectedFile, UTF_8);
    for (int i = 0; i < Math.min(expected.size(), actual.size()); i++) {
      if (!expected.get(i).equals(actual.get(i))) {
        fail(
            "%s:%d differs%n expected: %s%n actual:   %s",
            expectedFile, i + 1, expected.get(i), actual.get(i));
      }
    }
    assertThat(actual).as("event count for " + expectedFile).hasSameSizeAs(expected);
  }

  /**
   * A scenario's simulated GPU telemetry ({@code gpu/}) parses with engine gpu into exactly its
   * {@code expected/gpu-events.jsonl}, with no rejection.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("scenarios")
  void gpuTelemetryParsesIntoTheExpectedEvents(SampleScenarios.Scenario scenario)
      throws IOException {
    List<Path> gpuFiles = scenario.gpuFiles();
    Path expectedFile = scenario.dir().resolve("expected").resolve("gpu-events.jsonl");
    assertThat(Files.exists(expectedFile))
        .as(expectedFile.toString())
        .isEqualTo(!gpuFiles.isEmpty());
    if (gpuFiles.isEmpty()) {
      return;
    }
    ParseSettings settings =
        new ParseSettings(
            scenario.id(),
            ZoneId.of(scenario.properties().getProperty("zone", "UTC")),
            Integer.parseInt(scenario.properties().getProperty("year")));
    List<String> actual = new ArrayList<>();
    List<String> rejections = new ArrayList<>();
    TailOutput sink =
        new TailOutput() {
          @Override
          public void event(dev.tokentrace.event.EngineEvent event) {
            actual.add(EventJson.write(event));
          }

          @Override
          public void rejected(Rejection rejection, byte[] rawLine) {
            rejections.add(rejection.message());
          }
        };
    for (Path file : gpuFiles) {
      String relative = scenario.dir().relativize(file).toString();
      new SourceParser(relative, Engine.GPU, Parsers.create(Engine.GPU, settings), sink)
          .readFile(file, LineSplitter.DEFAULT_MAX_LINE_BYTES);
    }
    assertThat(rejections).as("rejections").isEmpty();
    assertThat(actual).containsExactlyElementsOf(Files.readAllLines(expectedFile, UTF_8));
  }
}
