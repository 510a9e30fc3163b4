package dev.tokentrace.simulator.output;

import dev.tokentrace.simulator.RequestView;
import dev.tokentrace.simulator.ServerView;
import dev.tokentrace.simulator.SimObserver;
import dev.tokentrace.simulator.StepView;
import java.io.Closeable;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * {@value #FILE}: the engine's {@code /metrics} ({@link MetricsExposition}, the text {@code
 * simulate --serve} serves) saved every {@code --metrics-scrape-s} seconds of model time the way
 * {@code tokentrace scrape --out} saves it, each scrape after a {@code # tokentrace scrape
 * <instant> <url>} marker (docs/formats/metrics.md#simulated-scrapes). The first scrape is at model
 * time 0, before any request (the histograms' baseline); the last one a scrape interval after the
 * last fact, so every finished request is in some interval. Not thread-safe.
 */
final class MetricsScrapeFile implements SimObserver, Closeable {
  static final String FILE = "metrics.prom";

  private final MetricsExposition exposition;
  private final TextFile out;
  private final Instant start;
  private final String url;
  private final long intervalUs;
  private long nextUs;
  private long lastUs;

  private MetricsScrapeFile(Path dir, OutputSettings output, double intervalS) {
    this.exposition = new MetricsExposition(output.format().engine());
    this.out = TextFile.create(dir.resolve(FILE));
    this.start = output.start();
    this.url =
        "http://127.0.0.1:"
            + (output.format().engine() == dev.tokentrace.event.Engine.SGLANG ? 30000 : 8000)
            + MetricsExposition.path(output.format().engine());
    this.intervalUs = Math.max(1, Math.round(intervalS * 1_000_000));
  }

  /** Adds the scrape writer when {@code intervalS > 0}. */
  static void open(
      double intervalS,
      OutputSettings output,
      Path dir,
      List<SimObserver> observers,
      List<Closeable> files) {
    if (intervalS <= 0) {
      return;
    }
    MetricsScrapeFile writer = new MetricsScrapeFile(dir, output, intervalS);
    observers.add(writer);
    files.add(writer);
  }

  /** SOURCE.md's description of this file, null for another file. */
  static @Nullable String describe(String name) {
    return FILE.equals(name)
        ? "the engine's `/metrics` saved by `tokentrace scrape` at a fixed interval (its real metric"
            + " names; each scrape after a `# tokentrace scrape <instant> <url>` line)"
        : null;
  }

  @Override
  public void advance(long nowUs, ServerView server) {
    // the state seen until now held until nowUs: scrapes due before it see it
    while (nextUs <= nowUs) {
      scrape(nextUs);
      nextUs += intervalUs;
    }
    exposition.advance(nowUs, server);
    lastUs = Math.max(lastUs, nowUs);
  }

  @Override
  public void stepFinished(StepView step, ServerView server) {
    exposition.stepFinished(step, server);
  }

  @Override
  public void serverFinished(RequestView request, ServerView server) {
    exposition.serverFinished(request, server);
  }

  @Override
  public void finished(ServerView server) {
    long end = lastUs + intervalUs;
    while (nextUs <= end) {
      scrape(nextUs);
      nextUs += intervalUs;
    }
  }

  private void scrape(long atUs) {
    Instant at = start.plusNanos(atUs * 1000).truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
    StringBuilder marker = out.begin();
    marker.append("# tokentrace scrape ").append(at).append(' ').append(url);
    out.end();
    out.write(exposition.text());
  }

  @Override
  public void close() {
    out.close();
  }
}
