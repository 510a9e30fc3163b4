package dev.tokentrace.clients;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The client timing readers by format id ({@code tokentrace clients --format}), and detection of a
 * file's format by content ({@code --format auto}): benchmark clients, JMeter and wrk, and the
 * gateways' access logs (NGINX, Envoy; docs/formats/gateways.md).
 */
public final class ClientTimingReaders {
  /** The {@code --format} value that detects each file's format. */
  public static final String AUTO = "auto";

  /** Every format, in detection priority order (the first that recognizes a file wins). */
  private static final List<Function<ClientReadSettings, ClientTimingReader>> FACTORIES =
      List.of(
          settings -> new CsvClientTimingReader(),
          settings -> new AiperfClientTimingReader(),
          settings -> new GenaiPerfClientTimingReader(),
          settings -> new GuidellmClientTimingReader(),
          settings -> new SglangBenchClientTimingReader(),
          VllmBenchClientTimingReader::new,
          settings -> new LlmperfClientTimingReader(),
          JmeterClientTimingReader::new,
          settings -> new WrkClientTimingReader(),
          NginxClientTimingReader::new,
          EnvoyClientTimingReader::new);

  private ClientTimingReaders() {}

  /** Every reader, in detection priority order. */
  public static List<ClientTimingReader> all(ClientReadSettings settings) {
    requireNonNull(settings, "settings is null");
    return FACTORIES.stream().map(factory -> factory.apply(settings)).toList();
  }

  /** Every reader with default settings. */
  public static List<ClientTimingReader> all() {
    return all(ClientReadSettings.DEFAULTS);
  }

  /**
   * Why {@code settings.logFormat()} is a layout no gateway reader can read (not an NGINX {@code
   * log_format} nor an Envoy format string, or one without the timings or the request id): one line
   * naming each reader's reason; null when one of them can read it or none is given. Followers
   * check it before they start (docs/follow.md#client-files).
   */
  public static @Nullable String logFormatProblem(ClientReadSettings settings) {
    if (settings.logFormat() == null) {
      return null;
    }
    List<String> problems = new ArrayList<>();
    for (ClientTimingReader reader : all(settings)) {
      if (reader instanceof GatewayLogReader gateway) {
        String problem = gateway.customProblem();
        if (problem == null) {
          return null;
        }
        problems.add(problem.replaceAll("\\s*\\R\\s*", " "));
      }
    }
    return "--log-format cannot be read: " + String.join("; ", problems);
  }

  /** The format ids, for help texts: csv, aiperf, genai-perf, guidellm, ... */
  public static List<String> formats() {
    return all().stream().map(ClientTimingReader::format).toList();
  }

  /** The reader for {@code format} with default settings. */
  public static ClientTimingReader forFormat(String format) {
    return forFormat(format, ClientReadSettings.DEFAULTS);
  }

  /**
   * The reader for {@code format}.
   *
   * @throws IllegalArgumentException listing the known formats when there is none
   */
  public static ClientTimingReader forFormat(String format, ClientReadSettings settings) {
    String wanted = format.strip().toLowerCase(Locale.ROOT);
    for (ClientTimingReader reader : all(settings)) {
      if (reader.format().equals(wanted)) {
        return reader;
      }
    }
    throw new IllegalArgumentException(
        "unknown client format '"
            + format
            + "' (known: "
            + AUTO
            + ", "
            + String.join(", ", formats())
            + ")");
  }

  /**
   * The reader for {@code file}: the named format, or with {@value #AUTO} the first format that
   * recognizes the file's first 64 KB.
   *
   * @throws IllegalArgumentException when nothing recognizes the file; the message lists every
   *     format tried and why it did not match
   * @throws java.io.UncheckedIOException naming the file when it cannot be read
   */
  public static ClientTimingReader forFile(Path file, String format, ClientReadSettings settings) {
    if (!AUTO.equals(format.strip().toLowerCase(Locale.ROOT))) {
      return forFormat(format, settings);
    }
    FileHead head = FileHead.of(file);
    StringBuilder tried = new StringBuilder();
    if (head.isEmpty() || head.isBinary()) {
      throw new IllegalArgumentException(
          file
              + ": client: no client format recognized: the file is "
              + (head.isEmpty() ? "empty" : "binary (NUL bytes)"));
    }
    for (ClientTimingReader reader : all(settings)) {
      Recognition recognition = reader.recognize(head);
      if (recognition.matches()) {
        return reader;
      }
      tried.append("\n  ").append(reader.format()).append(": ").append(recognition.reason());
    }
    throw new IllegalArgumentException(
        file + ": client: no client format recognized (give --format); tried:" + tried);
  }
}
