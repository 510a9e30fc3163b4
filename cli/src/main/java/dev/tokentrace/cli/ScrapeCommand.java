package dev.tokentrace.cli;

import dev.tokentrace.ingest.scrape.MetricsScraper;
import dev.tokentrace.ingest.scrape.ScrapeLimits;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
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
      "A failed scrape (unreachable, not HTTP 200, longer than --max-bytes, a line longer than"
          + " --max-line-bytes, not complete within --interval) is reported in one line on stderr"
          + " and skipped; exit 1 when none succeeded."
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
      description =
          "Time between scrapes, and each request's whole deadline (connect, headers and body).")
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
      names = "--max-bytes",
      paramLabel = "BYTES",
      defaultValue = "" + ScrapeLimits.DEFAULT_MAX_BYTES,
      description = "Longest accepted response body; a longer one is refused and not appended.")
  private long maxBytes = ScrapeLimits.DEFAULT_MAX_BYTES;

  @Option(
      names = "--max-line-bytes",
      paramLabel = "BYTES",
      defaultValue = "" + ScrapeLimits.DEFAULT_MAX_LINE_BYTES,
      description = "Longest accepted line of a response; a response with a longer one is refused.")
  private int maxLineBytes = ScrapeLimits.DEFAULT_MAX_LINE_BYTES;

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
    if (maxBytes < 1 || maxLineBytes < 1) {
      err.println("scrape: --max-bytes and --max-line-bytes must be >= 1");
      return ExitCodes.USAGE;
    }
    MetricsScraper scraper =
        new MetricsScraper(url, new ScrapeLimits(maxBytes, maxLineBytes, interval));
    MetricsScraper.Summary summary;
    try (ShutdownHook hook = ShutdownHook.install("scrape", err, scraper::stop);
        OutputStream file =
            Files.newOutputStream(out, StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
      summary =
          scraper.run(
              count,
              interval,
              file,
              problem -> {
                err.println("scrape: " + problem);
                err.flush();
              });
      stdout.printf(
          "scrape: %d scrapes appended to %s, %d failed%n", summary.ok(), out, summary.failed());
      stdout.flush();
      hook.finished(summary.ok() == 0 ? ExitCodes.INFRASTRUCTURE : ExitCodes.OK);
    }
    if (summary.ok() == 0) {
      return ExitCodes.INFRASTRUCTURE;
    }
    if (db != null && !summary.stopped()) {
      List<String> args = new ArrayList<>(List.of("ingest", "--db", db.toString()));
      args.addAll(List.of("--instance", instance, out.toString()));
      return spec.root().commandLine().execute(args.toArray(new String[0]));
    }
    return ExitCodes.OK;
  }
}
