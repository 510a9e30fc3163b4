package dev.tokentrace.cli;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.tokentrace.event.Engine;
import dev.tokentrace.ingest.SourceFile;
import dev.tokentrace.parse.ParseSettings;
import dev.tokentrace.parse.Parsers;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PushbackInputStream;
import java.io.UncheckedIOException;
import java.nio.charset.CodingErrorAction;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;

/**
 * Turns the files on the command line into {@link SourceFile}s: checks they are readable, detects
 * or checks each one's engine from its first lines, and picks the year for logs without years.
 * Every problem is collected and reported at once (exit 2) before any work starts.
 */
final class SourceFiles {
  /** Lines read to detect a format: enough for banners and a stats interval or two. */
  static final int HEAD_LINES = 400;

  private static final int HEAD_CHARS = 1 << 20;

  /** vLLM's {@code MM-DD HH:MM:SS} record time, used to infer the first line's year. */
  private static final Pattern MONTH_DAY =
      Pattern.compile("\\b(0[1-9]|1[0-2])-([0-3]\\d) \\d{2}:\\d{2}:\\d{2}\\b");

  private SourceFiles() {}

  static List<SourceFile> resolve(List<Path> paths, ParseOptions options) {
    InputPaths.requireReadable(paths);
    ZoneId zone = options.zoneId();
    String instance = options.instanceName();
    Engine forced = options.forcedEngine();
    List<SourceFile> files = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    for (Path path : paths) {
      List<String> head = head(path);
      int year = options.year != null ? options.year : startYear(path, head, zone);
      ParseSettings settings = new ParseSettings(instance, zone, year);
      Parsers.Detection detection = Parsers.detect(head, settings);
      if (forced == null) {
        if (detection.engine().isEmpty()) {
          problems.add(
              path
                  + ": no known engine format in its first lines (tried "
                  + detection.describe()
                  + "); give --engine if you know it");
          continue;
        }
        files.add(new SourceFile(path, detection.engine().get(), settings));
      } else {
        if (detection.engine().isPresent() && detection.engine().get() != forced) {
          problems.add(
              path
                  + ": looks like "
                  + detection.engine().get().id()
                  + ", not "
                  + forced.id()
                  + " (detected from its first lines: "
                  + detection.describe()
                  + "); use --engine "
                  + detection.engine().get().id()
                  + " or --engine auto");
          continue;
        }
        files.add(new SourceFile(path, forced, settings));
      }
    }
    if (!problems.isEmpty()) {
      throw new UsageException(problems);
    }
    return files;
  }

  /** The first lines of a plain or gzip file, decoded leniently (detection only). */
  static List<String> head(Path path) {
    List<String> lines = new ArrayList<>();
    try (BufferedReader reader = reader(path)) {
      int chars = 0;
      for (String line = reader.readLine();
          line != null && lines.size() < HEAD_LINES && chars < HEAD_CHARS;
          line = reader.readLine()) {
        lines.add(line.length() > HEAD_CHARS ? line.substring(0, HEAD_CHARS) : line);
        chars += line.length();
      }
      return lines;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + path, e);
    }
  }

  private static BufferedReader reader(Path path) throws IOException {
    PushbackInputStream raw = new PushbackInputStream(Files.newInputStream(path), 2);
    byte[] magic = new byte[2];
    int read = raw.read(magic);
    if (read > 0) {
      raw.unread(magic, 0, read);
    }
    InputStream input =
        read == 2 && (magic[0] & 0xff) == 0x1f && (magic[1] & 0xff) == 0x8b
            ? new GZIPInputStream(raw)
            : raw;
    return new BufferedReader(
        new InputStreamReader(
            input,
            UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPLACE)
                .onUnmappableCharacter(CodingErrorAction.REPLACE)));
  }

  /**
   * The year of the file's modification time, which is close to its last line; one less when the
   * log's first {@code MM-DD} is in a later month than that (the log began last year).
   */
  static int startYear(Path path, List<String> head, ZoneId zone) {
    LocalDate modified;
    try {
      modified = LocalDate.ofInstant(Files.getLastModifiedTime(path).toInstant(), zone);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot stat " + path, e);
    }
    for (String line : head) {
      Matcher matcher = MONTH_DAY.matcher(line);
      if (matcher.find()) {
        int month = Integer.parseInt(matcher.group(1));
        return month > modified.getMonthValue() ? modified.getYear() - 1 : modified.getYear();
      }
    }
    return modified.getYear();
  }
}
