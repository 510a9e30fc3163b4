package dev.tokentrace.parse.metrics;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.EngineStats;
import dev.tokentrace.event.KvTransfer;
import dev.tokentrace.event.ServerHistogram;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.parse.LineParser;
import dev.tokentrace.parse.ParseOutput;
import dev.tokentrace.parse.ParseSettings;
import dev.tokentrace.parse.Rejection;
import dev.tokentrace.parse.exposition.ExpositionLine;
import dev.tokentrace.parse.exposition.ExpositionParser;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * One engine's {@code /metrics} text, one scrape after another (docs/formats/metrics.md): each
 * scrape's gauges become one {@code engine_stats} and each latency histogram, from the second
 * scrape on, one {@code server_histogram} with what it gained since the scrape before. A scrape
 * starts at a {@code # tokentrace scrape <instant>} marker, or when a series repeats (scrapes saved
 * back to back by another tool). Its events sit at its first line; its other lines are reported as
 * folded into it. Not thread-safe; one instance per source.
 */
public final class MetricsLineParser implements LineParser {
  static final String FOLDED = "metrics: sample folded into its scrape";
  static final String METADATA = "metrics: exposition metadata";
  static final String UNUSED = "metrics: metric not used";
  static final String BASELINE = "metrics: first scrape (baseline of the histograms)";

  /** {@code source_kind} of a {@code kv_transfer} row from SGLang's metrics. */
  static final String KV_METRICS = "sglang_metrics";

  private final Engine engine;
  private final String instance;
  private @Nullable Scrape scrape;
  private @Nullable Instant markedTs;
  private @Nullable SourcePosition markedAt;
  private Map<String, HistogramDelta> previous = new HashMap<>();
  private @Nullable Instant previousTs;
  private boolean hasPrevious;

  public MetricsLineParser(Engine engine, ParseSettings settings) {
    this.engine = engine;
    this.instance = settings.instance();
  }

  /** Whether {@code line} is {@code engine}'s metrics text rather than a log line. */
  public static boolean claims(Engine engine, String line) {
    return EngineMetrics.claims(engine, line);
  }

  @Override
  public void parse(String line, SourcePosition position, ParseOutput sink) {
    String text = line.strip();
    if (text.startsWith(EngineMetrics.MARKER)) {
      marker(text, line, position, sink);
      return;
    }
    ExpositionParser.Result result = ExpositionParser.parse(text);
    if (result instanceof ExpositionParser.Invalid invalid) {
      reject(position, "metrics: " + invalid.reason(), line, sink);
    } else if (result instanceof ExpositionParser.Sample sample) {
      sample(sample.line(), line, position, sink);
    } else if (text.isEmpty()) {
      sink.ignored(position, METADATA);
    } else {
      String key = "#" + text;
      if (scrape != null && scrape.seen.contains(key)) {
        flush(sink);
      }
      start(position).seen.add(key);
      report(position, METADATA, sink);
    }
  }

  private void marker(String text, String line, SourcePosition position, ParseOutput sink) {
    String stamp = text.substring(EngineMetrics.MARKER.length()).strip();
    int blank = stamp.indexOf(' ');
    Instant ts;
    try {
      ts = Instant.parse(blank < 0 ? stamp : stamp.substring(0, blank));
    } catch (DateTimeParseException e) {
      reject(position, "metrics: bad scrape marker time", line, sink);
      return;
    }
    flush(sink);
    if (markedAt != null) {
      sink.ignored(markedAt, BASELINE); // a marker with no line after it
    }
    markedTs = ts;
    markedAt = position;
  }

  private void sample(
      ExpositionLine sample, String line, SourcePosition position, ParseOutput sink) {
    String name = sample.name();
    double value = sample.value();
    String base = EngineMetrics.baseOf(name);
    boolean gauge =
        EngineMetrics.RUNNING.contains(name)
            || EngineMetrics.WAITING.contains(name)
            || EngineMetrics.KV_FRACTION.contains(name);
    boolean histogram =
        (EngineMetrics.HISTOGRAMS.containsKey(base) || EngineMetrics.KV_HISTOGRAMS.contains(base))
            && !base.equals(name);
    // a counter is read as a histogram's count alone (its deltas between scrapes)
    boolean counter = name.equals(EngineMetrics.KV_FAILED);
    histogram |= counter;
    if ((gauge || histogram) && (!Double.isFinite(value) || value < 0)) {
      reject(position, "metrics: " + name + " is " + value, line, sink);
      return;
    }
    String range = outOfRange(name, gauge, histogram, value);
    if (range != null) {
      reject(position, "metrics: " + name + " is " + value + ", " + range, line, sink);
      return;
    }
    if (!counter
        && histogram
        && name.endsWith("_bucket")
        && Scrape.bound(sample.label("le")) == null) {
      reject(position, "metrics: " + name + ": bad or missing le label", line, sink);
      return;
    }
    String key = name + sample.labels();
    if (scrape != null && scrape.seen.contains(key)) {
      flush(sink);
    }
    if (gauge && scrape != null && !scrape.fits(name, value)) {
      reject(
          position,
          "metrics: " + name + " is " + value + ", its scrape's sum passes " + Integer.MAX_VALUE,
          line,
          sink);
      return;
    }
    Scrape current = start(position);
    current.seen.add(key);
    if (current.ts == null && sample.timestampMs() != null) {
      current.ts = Instant.ofEpochMilli(sample.timestampMs());
    }
    if (gauge) {
      current.gauge(name, value);
    } else if (histogram) {
      current.histogram(base, name, sample);
    }
    report(position, gauge || histogram ? FOLDED : UNUSED, sink);
  }

  /**
   * Why a finite, non-negative value cannot be taken (docs/formats/metrics.md#hostile-values), or
   * null: a request count must fit the events' 32-bit integer, a KV fraction must stay finite as a
   * percentage, and a histogram's counts must be integers a double holds exactly (below 2^53) and
   * its sum finite in milliseconds.
   */
  private static @Nullable String outOfRange(
      String name, boolean gauge, boolean histogram, double value) {
    if (gauge && !EngineMetrics.KV_FRACTION.contains(name)) {
      return value > Integer.MAX_VALUE ? "more than a request count holds (2147483647)" : null;
    }
    if (gauge) {
      return Double.isFinite(value * 100) ? null : "out of range for a KV-cache fraction";
    }
    if (histogram && name.endsWith("_sum")) {
      return Double.isFinite(value * 1000) ? null : "out of range for a sum of seconds";
    }
    if (histogram && value >= EXACT_COUNT) {
      return "more than a double counts exactly (2^53)";
    }
    return null;
  }

  /** 2^53: every integer below it is exact in a double. */
  private static final double EXACT_COUNT = 9007199254740992.0;

  /** The current scrape, started at {@code position} if none is open. */
  private Scrape start(SourcePosition position) {
    if (scrape == null) {
      scrape = new Scrape(markedAt != null ? markedAt : position, markedTs);
      markedAt = null;
      markedTs = null;
    }
    return scrape;
  }

  /** Every line but a scrape's first gets its outcome now; the first gets the scrape's events. */
  private void report(SourcePosition position, String rule, ParseOutput sink) {
    Scrape current = scrape;
    if (current == null || !current.first.equals(position)) {
      sink.ignored(position, rule);
    }
  }

  private void flush(ParseOutput sink) {
    Scrape done = scrape;
    scrape = null;
    if (done == null) {
      return;
    }
    boolean any = false;
    if (done.gauges) {
      sink.event(
          new EngineStats(
              engine,
              instance,
              done.ts,
              done.first,
              null,
              null,
              null,
              null,
              done.running,
              done.waiting,
              null,
              done.kvPct,
              null,
              null));
      any = true;
    }
    Map<String, HistogramDelta> perMetric = new TreeMap<>();
    for (Map.Entry<String, HistogramDelta> series : done.series.entrySet()) {
      HistogramDelta delta = series.getValue().minus(previous.get(series.getKey()));
      perMetric
          .computeIfAbsent(done.baseOf.get(series.getKey()), unused -> new HistogramDelta())
          .add(delta);
    }
    if (hasPrevious) {
      Double interval =
          done.ts != null && previousTs != null && !done.ts.isBefore(previousTs)
              ? Duration.between(previousTs, done.ts).toNanos() / 1e9
              : null;
      KvTransfer transfers = kvTransfers(done, perMetric, interval);
      if (transfers != null) {
        sink.event(transfers);
        any = true;
      }
      for (Map.Entry<String, HistogramDelta> metric : perMetric.entrySet()) {
        sink.event(histogram(done, metric.getKey(), metric.getValue(), interval));
        any = true;
      }
    }
    if (!any) {
      sink.ignored(done.first, BASELINE);
    }
    previous = done.series;
    previousTs = done.ts;
    hasPrevious = true;
  }

  /**
   * SGLang's KV transfer metrics of one interval (docs/formats/pd.md#sglang-kv-transfer-metrics) as
   * one {@code kv_transfer} interval row of the prefill server that observed them, taken out of
   * {@code perMetric}; null when the scrapes have none of them.
   */
  private @Nullable KvTransfer kvTransfers(
      Scrape done, Map<String, HistogramDelta> perMetric, @Nullable Double interval) {
    HistogramDelta latency = perMetric.remove(EngineMetrics.KV_LATENCY_MS);
    HistogramDelta total = perMetric.remove(EngineMetrics.KV_TOTAL_MB);
    HistogramDelta failed = perMetric.remove(EngineMetrics.KV_FAILED);
    if (latency == null && failed == null) {
      return null;
    }
    long count = latency == null ? 0 : Math.round(latency.count);
    boolean timed = count > 0 && latency.hasSum;
    boolean sized = timed && total != null && total.hasSum && Math.round(total.count) == count;
    return new KvTransfer(
        engine,
        instance,
        done.ts,
        done.first,
        null,
        null,
        "prefill",
        null,
        interval,
        count,
        timed ? latency.sum / count : null,
        count > 0 ? latency.quantile(0.9) : null, // the buckets are in ms already
        sized ? total.sum / count : null,
        sized && latency.sum > 0 ? total.sum / (latency.sum / 1000) : null,
        failed == null ? null : Math.round(failed.count),
        null,
        KV_METRICS);
  }

  private ServerHistogram histogram(
      Scrape done, String metric, HistogramDelta delta, @Nullable Double interval) {
    long count = Math.round(delta.count);
    return new ServerHistogram(
        engine,
        instance,
        done.ts,
        done.first,
        EngineMetrics.HISTOGRAMS.get(metric),
        metric,
        interval,
        count,
        count == 0 || !delta.hasSum ? null : delta.sum * 1000,
        ms(delta.quantile(0.5)),
        ms(delta.quantile(0.9)),
        ms(delta.quantile(0.99)),
        delta.bucketText());
  }

  private static @Nullable Double ms(@Nullable Double seconds) {
    return seconds == null ? null : seconds * 1000;
  }

  private void reject(SourcePosition position, String reason, String line, ParseOutput sink) {
    sink.rejected(Rejection.of(position, engine, reason, line));
  }

  @Override
  public void finish(ParseOutput sink) {
    flush(sink);
    if (markedAt != null) {
      sink.ignored(markedAt, BASELINE);
      markedAt = null;
    }
  }

  /** The gauges and histogram series of one scrape. */
  private static final class Scrape {
    final SourcePosition first;
    @Nullable Instant ts;
    final Set<String> seen = new HashSet<>();
    final Map<String, HistogramDelta> series = new HashMap<>();
    final Map<String, String> baseOf = new HashMap<>();
    boolean gauges;
    @Nullable Integer running;
    @Nullable Integer waiting;
    @Nullable Double kvPct;

    Scrape(SourcePosition first, @Nullable Instant ts) {
      this.first = first;
      this.ts = ts;
    }

    /** Whether a request-count gauge of {@code value} keeps the scrape's sum in an int. */
    boolean fits(String name, double value) {
      Integer sum =
          EngineMetrics.RUNNING.contains(name)
              ? running
              : EngineMetrics.WAITING.contains(name) ? waiting : null;
      return sum == null || (long) sum + Math.round(value) <= Integer.MAX_VALUE;
    }

    /**
     * Sums running and waiting over the series (data-parallel engines), keeps the fullest KV; the
     * caller checked the value ({@code outOfRange}, {@link #fits}).
     */
    void gauge(String name, double value) {
      gauges = true;
      if (EngineMetrics.RUNNING.contains(name)) {
        running = (running == null ? 0 : running) + (int) Math.round(value);
      } else if (EngineMetrics.WAITING.contains(name)) {
        waiting = (waiting == null ? 0 : waiting) + (int) Math.round(value);
      } else {
        kvPct = Math.max(kvPct == null ? 0 : kvPct, value * 100);
      }
    }

    void histogram(String base, String name, ExpositionLine sample) {
      Map<String, String> labels = new TreeMap<>(sample.labels());
      String le = labels.remove("le");
      String key = base + labels;
      HistogramDelta histogram = series.computeIfAbsent(key, unused -> new HistogramDelta());
      baseOf.put(key, base);
      if (name.endsWith("_bucket")) {
        histogram.buckets.put(
            requireNonNull(bound(le), "le checked by the caller"), sample.value());
      } else if (name.endsWith("_sum")) {
        histogram.sum = sample.value();
        histogram.hasSum = true;
      } else {
        histogram.count = sample.value();
      }
    }

    static @Nullable Double bound(@Nullable String le) {
      if (le == null) {
        return null;
      }
      if (le.equals("+Inf")) {
        return Double.POSITIVE_INFINITY;
      }
      try {
        double value = Double.parseDouble(le);
        return Double.isFinite(value) && value >= 0 ? value : null;
      } catch (NumberFormatException e) {
        return null; // the caller rejects the line naming the label
      }
    }
  }
}
