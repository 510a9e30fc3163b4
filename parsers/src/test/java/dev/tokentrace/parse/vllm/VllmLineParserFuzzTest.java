package dev.tokentrace.parse.vllm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.event.json.EventJson;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.Arguments;

/**
 * Random mutations of every table line (cuts, character flips, huge numbers, NaN and infinities,
 * control characters) through the raw parser, not {@code Parsers.safe}, so that a parser bug
 * surfaces as an exception here. Every mutated line must still be reported and every event must
 * serialize. The seed is fixed: a failure reproduces.
 */
final class VllmLineParserFuzzTest {
  private static final long SEED = 20260519L;
  private static final int ROUNDS = 40;
  private static final String[] INSERTS = {
    "99999999999999999999999",
    "-1",
    "nan",
    "NaN",
    "Infinity",
    "1e308",
    "\uFFFD",
    "\u001B[0;36m",
    "\r",
    "'",
    "\"",
    "(",
    "[",
    "{",
    ": ",
    ", ",
    "%",
    ".",
    "\"intValue\":\"-5\"",
    "\"doubleValue\":\"Infinity\"",
    "Traceback (most recent call last):",
  };

  @Test
  void mutatedLinesNeverThrowAndAreAlwaysReported() {
    List<String> seeds = seedLines();
    Random random = new Random(SEED);
    VllmLineParser parser = new VllmLineParser(RecordingSink.SETTINGS);
    RecordingSink sink = new RecordingSink();
    int count = 0;
    for (int round = 0; round < ROUNDS; round++) {
      for (String seed : seeds) {
        String line = mutate(seed, random);
        count++;
        parser.parse(line, new SourcePosition(RecordingSink.PATH, count, 0), sink);
      }
    }
    parser.finish(sink);

    sink.assertEveryLineReported(count);
    assertThat(sink.events).allSatisfy(event -> assertThat(EventJson.write(event)).isNotEmpty());
  }

  static List<String> seedLines() {
    List<String> lines = new ArrayList<>();
    Stream.of(
            VllmLineParserTest.events(),
            VllmLineParserTest.ignoredLines(),
            VllmLineParserTest.badLines())
        .flatMap(rows -> rows)
        .map(Arguments::get)
        .forEach(row -> lines.add((String) row[0]));
    VllmLineParserTest.headers()
        .map(Arguments::get)
        .forEach(row -> lines.add(row[1] + VllmLines.V1_STATS));
    return lines;
  }

  static String mutate(String line, Random random) {
    StringBuilder text = new StringBuilder(line);
    int mutations = 1 + random.nextInt(3);
    for (int i = 0; i < mutations; i++) {
      int at = text.length() == 0 ? 0 : random.nextInt(text.length() + 1);
      switch (random.nextInt(5)) {
        case 0:
          text.setLength(at);
          break;
        case 1:
          if (at < text.length()) {
            text.setCharAt(at, (char) random.nextInt(0x3000));
          }
          break;
        case 2:
          text.insert(at, INSERTS[random.nextInt(INSERTS.length)]);
          break;
        case 3:
          replaceNumber(text, random);
          break;
        default:
          if (at < text.length()) {
            text.deleteCharAt(at);
          }
          break;
      }
    }
    return text.toString();
  }

  /** Replaces the first number after a random position with a huge or non-finite one. */
  private static void replaceNumber(StringBuilder text, Random random) {
    int from = text.length() == 0 ? 0 : random.nextInt(text.length());
    for (int at = from; at < text.length(); at++) {
      if (Character.isDigit(text.charAt(at))) {
        int end = at;
        while (end < text.length()
            && (Character.isDigit(text.charAt(end)) || text.charAt(end) == '.')) {
          end++;
        }
        text.replace(at, end, INSERTS[random.nextInt(6)]);
        return;
      }
    }
  }
}
