package dev.tokentrace.cli;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.tokentrace.event.Engine;
import dev.tokentrace.ingest.SourceFile;
import dev.tokentrace.parse.GpuMap;
import dev.tokentrace.parse.LineSplitter;
import dev.tokentrace.parse.ParseSettings;
import dev.tokentrace.parse.Parsers;
import dev.tokentrace.parse.ProxyLogLine;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

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
    List<String> problems = new ArrayList<>();
    List<SourceFile> files = resolve(paths, options, problems);
    if (!problems.isEmpty()) {
      throw new UsageException(problems);
    }
    return files;
  }

  /**
   * Like {@link #resolve(List, ParseOptions)}, but a file that cannot be used (empty, no known
   * format, another engine than --engine) is added to {@code problems} as {@code path:line: reason}
   * and left out, so that one bad file in a batch does not decide for the others.
   */
  /** Why no engine was detected: a P/D proxy's access log, or no known format. */
  private static String undetected(List<String> head, Parsers.Detection detection) {
    boolean proxyLog =
        head.stream()
            .filter(line -> !line.isBlank())
            .findFirst()
            .filter(ProxyLogLine::claims)
            .isPresent();
    if (proxyLog) {
      // every server engine reads its lines alike (docs/formats/pd.md#proxy-access-log)
      return ": a P/D proxy's access log: give --engine, the engine of the servers behind the proxy";
    }
    return ": no known engine format in its first lines (tried "
        + detection.describe()
        + "); give --engine if you know it";
  }

  static List<SourceFile> resolve(List<Path> paths, ParseOptions options, List<String> problems) {
    InputPaths.requireReadable(paths);
    ZoneId zone = options.zoneId();
    String instance = options.instanceName();
    GpuMap gpuMap = options.gpuMapping();
    Engine forced = options.forcedEngine();
    List<SourceFile> files = new ArrayList<>();
    for (Path path : paths) {
      List<String> head = head(path, options.maxLineBytes);
      if (head.isEmpty() && isEmpty(path)) {
        problems.add(path + ":1: empty file, nothing to load");
        continue;
      }
      int year = options.year != null ? options.year : startYear(path, head, zone);
      ParseSettings settings = new ParseSettings(instance, zone, year, gpuMap);
      Parsers.Detection detection = Parsers.detect(head, settings);
      if (forced == null) {
        if (detection.engine().isEmpty()) {
          problems.add(path + undetected(head, detection));
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
    return files;
  }

  private static boolean isEmpty(Path path) {
    try {
      return Files.size(path) == 0;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot stat " + path, e);
    }
  }

  /** The first lines of a plain or gzip file, decoded leniently (detection only). */
  static List<String> head(Path path) {
    return head(path, LineSplitter.DEFAULT_MAX_LINE_BYTES);
  }

  /**
   * The first lines of a plain or gzip file, decoded leniently (detection only), read in bounded
   * memory: a line longer than {@code maxLineBytes} (a crashed writer's NUL-filled file, one line
   * of 700 MB) is skipped without being held, and at most {@code HEAD_CHARS} bytes of a line and
   * {@code maxLineBytes + HEAD_CHARS} bytes in all are read. A gzip stream cut off ends the head
   * (the reader reports it with its line later).
   */
  static List<String> head(Path path, int maxLineBytes) {
    List<String> lines = new ArrayList<>();
    long budget = (long) maxLineBytes + HEAD_CHARS;
    int keep = Math.min(maxLineBytes, HEAD_CHARS);
    try (InputStream input = open(path)) {
      ByteArrayOutputStream line = new ByteArrayOutputStream();
      long lineBytes = 0;
      long total = 0;
      byte[] buffer = new byte[64 * 1024];
      int count;
      while (lines.size() < HEAD_LINES && total < budget && (count = read(input, buffer)) > 0) {
        for (int i = 0; i < count && lines.size() < HEAD_LINES; i++) {
          byte b = buffer[i];
          if (b == '\n') {
            if (lineBytes <= maxLineBytes) {
              lines.add(decode(line));
            }
            line.reset();
            lineBytes = 0;
          } else {
            lineBytes++;
            if (lineBytes <= keep) {
              line.write(b);
            }
          }
        }
        total += count;
      }
      if (line.size() > 0 && lineBytes <= maxLineBytes && lines.size() < HEAD_LINES) {
        lines.add(decode(line));
      }
      return lines;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + path, e);
    }
  }

  /** Reads; a gzip stream cut off or corrupt reads as its end here. */
  private static int read(InputStream input, byte[] buffer) throws IOException {
    try {
      return input.read(buffer);
    } catch (ZipException | EOFException e) {
      return -1;
    }
  }

  private static String decode(ByteArrayOutputStream line) {
    String text = new String(line.toByteArray(), UTF_8); // malformed input becomes U+FFFD
    return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
  }

  private static InputStream open(Path path) throws IOException {
    PushbackInputStream raw = new PushbackInputStream(Files.newInputStream(path), 2);
    byte[] magic = new byte[2];
    int read = raw.read(magic);
    if (read > 0) {
      raw.unread(magic, 0, read);
    }
    if (read == 2 && (magic[0] & 0xff) == 0x1f && (magic[1] & 0xff) == 0x8b) {
      try {
        return new GZIPInputStream(raw);
      } catch (ZipException | EOFException e) {
        raw.close();
        return InputStream.nullInputStream(); // a broken header: no lines to detect from
      }
    }
    return raw;
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
