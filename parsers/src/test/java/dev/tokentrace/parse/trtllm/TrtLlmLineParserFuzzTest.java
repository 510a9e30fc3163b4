package dev.tokentrace.parse.trtllm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;

import dev.tokentrace.event.json.EventJson;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.Arguments;

/**
 * Random mutations of the line tables' lines (cuts, character flips, huge numbers, NaN and
 * Infinity, inserted JSON punctuation, duplicated tails) fed to the raw parser, not {@code
 * Parsers.safe}: nothing may throw, every line must be reported, every event must serialize. Fixed
 * seeds, so a failure reproduces.
 */
final class TrtLlmLineParserFuzzTest {
  private static final Pattern NUMBER = Pattern.compile("-?\\d+(?:\\.\\d+)?(?:e-?\\d+)?");
  private static final String[] NUMBERS = {
    "NaN",
    "Infinity",
    "-Infinity",
    "-1",
    "1e999",
    "-0.0",
    "99999999999999999999999999999999",
    "9223372036854775808",
    "2147483648",
    "0",
    "\"\"",
    "null",
    "[]",
    "{}",
    "1.5"
  };
  private static final String[] NOISE = {
    "{",
    "}",
    "[",
    "]",
    "\"",
    "\\",
    ",",
    ":",
    "'",
    " ",
    "\t",
    "\r",
    "\u0000",
    "\u001b[0m",
    "é",
    "\uD83D",
    "=",
    ", ",
    "{\"",
    "\"}",
    "[TRT-LLM] ",
    "iter = ",
    "\n"
  };

  @Test
  void mutatedLinesNeverThrowAndAreAllReported() {
    List<String> corpus = tableLines();
    Random random = new Random(20260801L);
    for (int round = 0; round < 4000; round++) {
      int start = random.nextInt(corpus.size());
      int count = 1 + random.nextInt(8);
      List<String> lines = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        // consecutive lines, so that multi-line JSON and tracebacks stay partly intact
        lines.add(mutate(corpus.get((start + i) % corpus.size()), random));
      }
      check(lines, "round " + round);
    }
  }

  @Test
  void everyTableLineCutAtAnyPositionNeverThrows() {
    for (String line : tableLines()) {
      int step = Math.max(1, line.length() / 25);
      for (int cut = 0; cut <= line.length(); cut += step) {
        check(List.of(line.substring(0, cut)), "cut " + cut);
        check(List.of(line.substring(cut)), "tail " + cut);
      }
    }
  }

  private static void check(List<String> lines, String label) {
    Recorder sink =
        assertDoesNotThrow(
            () -> Recorder.run(new TrtLlmLineParser(TrtLlmLineParserTest.SETTINGS, 4096), lines),
            () -> label + ": " + lines);
    assertThat(sink.reportedLines)
        .as("%s: every line reported: %s", label, lines)
        .containsExactlyElementsOf(TrtLlmLineParserTest.lineNumbers(lines));
    sink.events.forEach(EventJson::write);
  }

  static String mutate(String line, Random random) {
    String text = line;
    int operations = 1 + random.nextInt(3);
    for (int i = 0; i < operations; i++) {
      text = mutateOnce(text, random);
    }
    return text;
  }

  private static String mutateOnce(String text, Random random) {
    int at = text.isEmpty() ? 0 : random.nextInt(text.length() + 1);
    switch (random.nextInt(6)) {
      case 0:
        return text.substring(0, at);
      case 1:
        return at < text.length()
            ? text.substring(0, at) + pick(NOISE, random) + text.substring(at + 1)
            : text;
      case 2:
        return replaceNumber(text, random);
      case 3:
        return text.substring(0, at) + pick(NOISE, random) + text.substring(at);
      case 4:
        return text + text.substring(at);
      default:
        return text;
    }
  }

  private static String replaceNumber(String text, Random random) {
    Matcher matcher = NUMBER.matcher(text);
    List<int[]> spans = new ArrayList<>();
    while (matcher.find()) {
      spans.add(new int[] {matcher.start(), matcher.end()});
    }
    if (spans.isEmpty()) {
      return text;
    }
    int[] span = spans.get(random.nextInt(spans.size()));
    return text.substring(0, span[0]) + pick(NUMBERS, random) + text.substring(span[1]);
  }

  private static String pick(String[] values, Random random) {
    return values[random.nextInt(values.length)];
  }

  @SuppressWarnings("unchecked")
  static List<String> tableLines() {
    List<String> lines = new ArrayList<>();
    Stream.concat(TrtLlmLineParserTest.formats(), TrtLlmLineParserTest.badLines())
        .map(Arguments::get)
        .forEach(arguments -> lines.addAll((List<String>) arguments[1]));
    return lines;
  }
}
