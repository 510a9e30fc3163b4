package dev.tokentrace.cli;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tokentrace scrape}: polls an engine's Prometheus endpoint and appends each scrape, after a
 * {@code # tokentrace scrape <instant> <url>} marker, to a file that {@code ingest}, {@code ship
 * --follow} and {@code parse} read like a log (docs/formats/metrics.md#saved-scrapes); with {@code
 * --db}, loads it through Kafka into DuckDB when done.
 */
@Command(
    name = "scrape",
    mixinStandardHelpOptions = true,
    showDefaultValues = true,
    description = {
      "Scrape an inference engine's /metrics (vLLM, SGLang, trtllm-serve) every --interval and"
          + " append each scrape, dated by a '# tokentrace scrape <instant> <url>' line, to --out.",
      "The file is read like a log: 'ingest' or 'ship --follow' it (engine detected from the"
          + " metric names) to get engine_stats rows from the gauges and server_histogram rows,"
          + " each histogram's requests and quantiles per interval, from the histograms"
          + " (docs/formats/metrics.md). With --db, scrape then loads --out through Kafka into that"
          + " DuckDB file (as 'ingest --db FILE --instance NAME OUT' does).",
      "A failed scrape is reported on stderr and skipped; exit 1 when none succeeded."
    })
public final class ScrapeCommand implements Callable<Integer> {
  @Spec private CommandSpec spec;

  @Option(
      names = "--url",
      required = true,
      paramLabel = "URL",
      description = "The endpoint, e.g. http://127.0.0.1:8000/metrics.")
  private URI url;

  @Option(
      names = "--interval",
      paramLabel = "DURATION",
      defaultValue = "1s",
      converter = DurationConverter.class,
      description = "Time between scrapes (also each request's timeout).")
  private Duration interval = Duration.ofSeconds(1);

  @Option(
      names = "--count",
      paramLabel = "N",
      defaultValue = "0",
      description = "Stop after N scrapes; 0 = until SIGTERM or Ctrl-C.")
  private int count;

  @Option(
      names = "--out",
      required = true,
      paramLabel = "FILE",
      description = "File the scrapes are appended to (created if missing).")
  private Path out;

  @Option(
      names = "--instance",
      paramLabel = "NAME",
      defaultValue = "default",
      description = "With --db: the server name stamped on every event.")
  private String instance = "default";

  @Option(
      names = "--db",
      paramLabel = "FILE",
      description =
          "Load --out into this DuckDB file (through an embedded Kafka broker) at the end.")
  private @Nullable Path db;

  @Override
  public Integer call() throws Exception {
    PrintWriter err = spec.commandLine().getErr();
    PrintWriter stdout = spec.commandLine().getOut();
    if (interval.isNegative() || interval.isZero() || count < 0) {
      err.println("scrape: --interval must be > 0 and --count >= 0");
      return ExitCodes.USAGE;
    }
    HttpClient client = HttpClient.newBuilder().connectTimeout(interval).build();
    CountDownLatch stop = new CountDownLatch(1);
    int ok = 0;
    int failed = 0;
    try (ShutdownHook hook = ShutdownHook.install("scrape", err, stop::countDown);
        OutputStream file =
            Files.newOutputStream(out, StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
      for (int done = 0; count == 0 || done < count; done++) {
        if (done > 0 && stop.await(interval.toMillis(), TimeUnit.MILLISECONDS)) {
          break;
        }
        String problem = scrapeOnce(client, file);
        if (problem == null) {
          ok++;
        } else {
          failed++;
          err.println("scrape: " + url + ": " + problem);
          err.flush();
        }
      }
      stdout.printf("scrape: %d scrapes appended to %s, %d failed%n", ok, out, failed);
      stdout.flush();
      hook.finished(ok == 0 ? ExitCodes.INFRASTRUCTURE : ExitCodes.OK);
    }
    if (ok == 0) {
      return ExitCodes.INFRASTRUCTURE;
    }
    if (db != null) {
      List<String> args = new ArrayList<>(List.of("ingest", "--db", db.toString()));
      args.addAll(List.of("--instance", instance, out.toString()));
      return spec.root().commandLine().execute(args.toArray(new String[0]));
    }
    return ExitCodes.OK;
  }

  /** One scrape appended to {@code file}; the problem, or null. */
  private @Nullable String scrapeOnce(HttpClient client, OutputStream file) throws IOException {
    Instant at = Clock.systemUTC().instant().truncatedTo(ChronoUnit.MILLIS);
    HttpResponse<byte[]> response;
    try {
      response =
          client.send(
              HttpRequest.newBuilder(url).timeout(interval).GET().build(),
              HttpResponse.BodyHandlers.ofByteArray());
    } catch (IOException e) {
      return "cannot scrape: " + e.getClass().getSimpleName() + ": " + e.getMessage();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted";
    }
    if (response.statusCode() != 200) {
      return "HTTP " + response.statusCode();
    }
    byte[] body = response.body();
    file.write(("# tokentrace scrape " + at + " " + url + "\n").getBytes(UTF_8));
    file.write(body);
    if (body.length > 0 && body[body.length - 1] != '\n') {
      file.write('\n');
    }
    file.flush();
    return null;
  }
}
