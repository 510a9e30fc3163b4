package dev.tokentrace.event;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@link UserText#hasOddQuotes}, which takes {@code indexOf} shortcuts because every line of every
 * source passes it (docs/design.md#line-prechecks), answers as the plain character loop it
 * replaced, kept here as the reference: on every line of the checked-in samples and on random lines
 * over an alphabet of quotes, backslashes and letters.
 */
final class UserTextQuotesTest {
  /** The check as it was: a backslash skips the next character, then both quotes counted. */
  private static boolean reference(String line) {
    int single = 0;
    int dbl = 0;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (c == '\\') {
        i++;
      } else if (c == '\'') {
        single++;
      } else if (c == '"') {
        dbl++;
      }
    }
    return (single & 1) == 1 || (dbl & 1) == 1;
  }

  @Test
  void everySampleLineAnswersAsTheCharacterLoop() throws IOException {
    Path samples = Path.of("../samples");
    int lines = 0;
    List<String> different = new ArrayList<>();
    try (Stream<Path> files = Files.walk(samples)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        for (String line : read(file)) {
          if (UserText.hasOddQuotes(line) != reference(line)) {
            different.add(file + ": " + line);
          }
          lines++;
        }
      }
    }
    assertThat(different).isEmpty();
    assertThat(lines).isGreaterThan(10_000);
  }

  @Test
  void randomLinesAnswerAsTheCharacterLoop() {
    Random random = new Random(19);
    char[] alphabet = {'\'', '"', '\\', 'a', ' ', '{', '\u00e9', '\u20ac'};
    List<String> different = new ArrayList<>();
    for (int n = 0; n < 100_000; n++) {
      char[] line = new char[random.nextInt(12)];
      for (int i = 0; i < line.length; i++) {
        line[i] = alphabet[random.nextInt(alphabet.length)];
      }
      String text = new String(line);
      if (UserText.hasOddQuotes(text) != reference(text)
          || UserText.hasOddQuotesEscaped(text) != reference(text)) {
        different.add(text);
      }
    }
    assertThat(different).isEmpty();
  }

  private static List<String> read(Path file) {
    try {
      return Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (java.nio.charset.MalformedInputException e) {
      return List.of(); // a binary or non-UTF-8 sample: no lines of text to check
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
