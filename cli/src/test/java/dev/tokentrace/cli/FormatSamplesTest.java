package dev.tokentrace.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.json.EventJson;
import dev.tokentrace.ingest.tail.ParseCounts;
import dev.tokentrace.ingest.tail.SourceParser;
import dev.tokentrace.ingest.tail.TailOutput;
import dev.tokentrace.parse.LineSplitter;
import dev.tokentrace.parse.ParseSettings;
import dev.tokentrace.parse.Parsers;
import dev.tokentrace.parse.Rejection;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The format-generation samples ({@code samples/<engine>/formats/<generation>/}, one per format
 * generation of the engines' format docs, written by us to those formats) prove what {@code
 * tokentrace parse --engine auto} does with them: every file is detected as its directory's engine
 * from its first lines, exactly as the CLI reads them, and parses into {@code
 * expected/events.jsonl} with the counts of {@code expected/parse-summary.txt} and no rejection
 * beyond the ones {@code expected/rejects.txt} lists. {@code samples/regenerate-formats.sh}
 * rewrites the expected files; review the diff like code.
 */
final class FormatSamplesTest {
  /** Small on purpose: these are golden files, read in review. */
  private static final long MAX_TOTAL_BYTES = 1_000_000;

  private static final Pattern SUMMARY =
      Pattern.compile("^lines=(\\d+) parsed=(\\d+) ignored=(\\d+) rejected=(\\d+) ");

  static Stream<FormatSample> samples() {
    return FormatSample.findAll(GoldenSamplesTest.SAMPLES).stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("samples")
  void autoDetectsTheDirectorysEngineForEveryFile(FormatSample sample) {
    assertThat(sample.files()).as(sample + ": server files").isNotEmpty();
    for (Path file : sample.files()) {
      // the same head the CLI reads for --engine auto (SourceFiles.resolve)
      Parsers.Detection detection = Parsers.detect(SourceFiles.head(file), sample.settings());
      assertThat(detection.engine())
          .as("%s: detected from its first lines (%s)", file, detection.describe())
          .contains(sample.engine());
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("samples")
  void parsesIntoTheExpectedEvents(FormatSample sample) {
    Parsed parsed = parse(sample);

    assertThat(parsed.rejections)
        .as("rejections of %s (expected/rejects.txt)", sample)
        .containsExactlyElementsOf(sample.expectedLines("rejects.txt"));
    assertSameLines(
        sample.expected("events.jsonl"), sample.expectedLines("events.jsonl"), parsed.events);
    assertThat(counts(parsed.counts))
        .as("counts of %s against expected/parse-summary.txt", sample)
        .isEqualTo(summaryCounts(sample));
  }

  @Test
  void everyEngineHasFormatSamplesAndTheyStaySmall() throws IOException {
    List<FormatSample> samples = FormatSample.findAll(GoldenSamplesTest.SAMPLES);
    assertThat(samples.stream().map(FormatSample::engine).distinct())
        .containsExactlyInAnyOrder(dev.tokentrace.event.Engine.values());
    long bytes = 0;
    for (FormatSample sample : samples) {
      try (Stream<Path> files = Files.walk(sample.dir())) {
        for (Path file : files.filter(Files::isRegularFile).toList()) {
          bytes += Files.size(file);
        }
      }
    }
    assertThat(bytes).as("bytes under samples/*/formats").isLessThan(MAX_TOTAL_BYTES);
  }

  private static Parsed parse(FormatSample sample) {
    ParseSettings settings = sample.settings();
    Parsed parsed = new Parsed();
    ParseCounts total = ParseCounts.ZERO;
    for (Path file : sample.files()) {
      SourceParser parser =
          new SourceParser(
              sample.relative(file),
              sample.engine(),
              Parsers.create(sample.engine(), settings),
              parsed);
      try {
        total = total.plus(parser.readFile(file, LineSplitter.DEFAULT_MAX_LINE_BYTES));
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read " + file, e);
      }
    }
    parsed.counts = total;
    return parsed;
  }

  private static void assertSameLines(
      Path expectedFile, List<String> expected, List<String> actual) {
    for (int i = 0; i < Math.min(expected.size(), actual.size()); i++) {
      if (!expected.get(i).equals(actual.get(i))) {
        fail(
            "%s:%d differs (run samples/regenerate-formats.sh and review the diff)%n"
                + " expected: %s%n actual:   %s",
            expectedFile, i + 1, expected.get(i), actual.get(i));
      }
    }
    if (expected.size() != actual.size()) {
      List<String> extra =
          expected.size() > actual.size()
              ? expected.subList(actual.size(), expected.size())
              : actual.subList(expected.size(), actual.size());
      fail(
          "%s: %d expected events, %d parsed; first %s one:%n %s",
          expectedFile,
          expected.size(),
          actual.size(),
          expected.size() > actual.size() ? "missing" : "unexpected",
          extra.get(0));
    }
  }

  private static String counts(ParseCounts counts) {
    return String.format(
        Locale.ROOT,
        "lines=%d parsed=%d ignored=%d rejected=%d",
        counts.lines(),
        counts.parsed(),
        counts.ignored(),
        counts.rejected());
  }

  private static String summaryCounts(FormatSample sample) {
    for (String line : sample.expectedLines("parse-summary.txt")) {
      Matcher matcher = SUMMARY.matcher(line);
      if (matcher.find()) {
        return String.format(
            Locale.ROOT,
            "lines=%s parsed=%s ignored=%s rejected=%s",
            matcher.group(1),
            matcher.group(2),
            matcher.group(3),
            matcher.group(4));
      }
    }
    return "no summary line in " + sample.expected("parse-summary.txt");
  }

  /** What parsing a sample produced, in the CLI's formats. */
  private static final class Parsed implements TailOutput {
    final List<String> events = new ArrayList<>();
    final List<String> rejections = new ArrayList<>();
    ParseCounts counts = ParseCounts.ZERO;

    @Override
    public void event(EngineEvent event) {
      events.add(EventJson.write(event));
    }

    @Override
    public void rejected(Rejection rejection, byte[] rawLine) {
      rejections.add(rejection.message());
    }
  }
}
