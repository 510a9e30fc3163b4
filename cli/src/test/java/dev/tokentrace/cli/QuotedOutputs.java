package dev.tokentrace.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The command outputs quoted in README.md and docs/: each is a fenced block right after a marker
 * {@code <!-- output: NAME -->}. The test that runs the command compares its real output with the
 * quoted one ({@link #assertQuoted}), so a quoted output that drifts fails the build; {@code
 * QuotedOutputsTest} checks that every marker names an output such a test checks.
 */
final class QuotedOutputs {
  static final Path ROOT = Path.of("..");

  /** The quoted outputs and the test that regenerates each. */
  static final Map<String, String> CHECKED =
      Map.of("demo", "DemoIT", "analyze-aiperf", "ClientSamplesIT");

  private static final Pattern MARKER =
      Pattern.compile("<!-- output: ([a-z0-9-]+) -->\\n```[a-z]*\\n(.*?)\\n```", Pattern.DOTALL);
  private static final Pattern ANY_MARKER = Pattern.compile("<!-- output: ?([a-z0-9-]*) ?-->");

  private QuotedOutputs() {}

  /** A quoted output by name, with the file that quotes it. */
  record Quote(String name, Path file, String text) {}

  /** Every marked block of README.md and docs/**.md, in file order. */
  static List<Quote> all() {
    List<Quote> quotes = new ArrayList<>();
    for (Path file : files()) {
      Matcher matcher = MARKER.matcher(read(file));
      while (matcher.find()) {
        quotes.add(new Quote(matcher.group(1), file, matcher.group(2)));
      }
    }
    return quotes;
  }

  /** Every marker's name, with or without a block after it. */
  static List<String> markers() {
    List<String> names = new ArrayList<>();
    for (Path file : files()) {
      Matcher matcher = ANY_MARKER.matcher(read(file));
      while (matcher.find()) {
        names.add(file + ": " + matcher.group(1));
      }
    }
    return names;
  }

  /** The one quoted output of this name. */
  static String get(String name) {
    List<Quote> found = all().stream().filter(quote -> quote.name().equals(name)).toList();
    if (found.size() != 1) {
      throw new AssertionError(
          "expected one quoted output '" + name + "' in README.md and docs/, found " + found);
    }
    return found.get(0).text();
  }

  /**
   * What may differ between runs and machines, made equal: durations printed as {@code done in N
   * ms}, the absolute path of the HTML report, and {@code outDir} (a test's temporary folder, for
   * the folder the quoted command names).
   */
  static String normalise(String text, String outDir, String quotedOutDir) {
    String normal = text.replace("\r\n", "\n").strip();
    if (!outDir.isEmpty()) {
      normal = normal.replace(outDir, quotedOutDir);
    }
    normal = normal.replaceAll("done in \\d+ ms", "done in N ms");
    normal = normal.replaceAll("(?m)^(  html report: ).*/(report\\.html)$", "$1…/$2");
    return normal;
  }

  /**
   * Fails, showing both, when {@code actual} differs from the quoted output {@code name} after
   * {@link #normalise}.
   */
  static void assertQuoted(String name, String actual, String outDir, String quotedOutDir) {
    String expected = normalise(get(name), "", quotedOutDir);
    String got = normalise(actual, outDir, quotedOutDir);
    if (!expected.equals(got)) {
      throw new AssertionError(
          "the output quoted as '"
              + name
              + "' (README.md or docs/) drifted from what the command prints now; update the"
              + " quote.\n--- quoted\n"
              + expected
              + "\n--- printed now\n"
              + got);
    }
  }

  static Set<String> names() {
    return CHECKED.keySet();
  }

  private static List<Path> files() {
    List<Path> files = new ArrayList<>();
    files.add(ROOT.resolve("README.md"));
    try (Stream<Path> docs = Files.walk(ROOT.resolve("docs"))) {
      docs.filter(file -> file.toString().endsWith(".md")).sorted().forEach(files::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return files;
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** For messages: name to the file quoting it. */
  static Map<String, Path> where() {
    Map<String, Path> where = new LinkedHashMap<>();
    all().forEach(quote -> where.put(quote.name(), quote.file()));
    return where;
  }
}
