package dev.tokentrace.loadgen;

import dev.tokentrace.measure.Quantiles;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a run did: counts by status, and percentiles of TTFT and MLT over the measured (not warm-up)
 * successful requests, as the report computes them ({@link Quantiles}: the same P95 from the same
 * client CSV). MLT = (last token − first token) / (tokens − 1), never total / tokens (the seed).
 * Thread-safe.
 */
public final class LoadSummary {
  private final Map<String, Integer> statuses = new TreeMap<>();
  private final List<Double> ttfts = new ArrayList<>();
  private final List<Double> mlts = new ArrayList<>();
  private int requests;
  private int warmups;
  private int succeeded;

  synchronized void add(Outcome outcome) {
    requests++;
    if (outcome.warmup()) {
      warmups++;
    }
    statuses.merge(outcome.status(), 1, Integer::sum);
    if (!outcome.ok()) {
      return;
    }
    succeeded++;
    Double ttft = outcome.ttftMs();
    Integer tokens = outcome.outputTokens();
    if (outcome.warmup() || ttft == null) {
      return;
    }
    ttfts.add(ttft);
    if (tokens != null && tokens > 1) {
      mlts.add((outcome.lastTokenNanos() - outcome.firstTokenNanos()) / 1e6 / (tokens - 1));
    }
  }

  public synchronized int requests() {
    return requests;
  }

  public synchronized int succeeded() {
    return succeeded;
  }

  /** True when no request got through because nothing answered at the URL. */
  public synchronized boolean unreachable() {
    return succeeded == 0 && statuses.containsKey(RequestSender.Failure.UNREACHABLE);
  }

  /** One line: counts, then TTFT and MLT percentiles. */
  public synchronized String describe() {
    StringBuilder text = new StringBuilder();
    text.append(requests).append(" requests (").append(warmups).append(" warm-up): ");
    text.append(succeeded).append(" ok");
    statuses.forEach(
        (status, count) -> {
          if (!Outcome.OK.equals(status)) {
            text.append(", ").append(count).append(' ').append(status);
          }
        });
    text.append("; measured ").append(ttfts.size());
    text.append(": TTFT ").append(percentiles(ttfts)).append(", ITL ").append(percentiles(mlts));
    return text.toString();
  }

  private static String percentiles(List<Double> values) {
    if (values.isEmpty()) {
      return "n/a";
    }
    return String.format(
        Locale.ROOT,
        "p50 %.1f / p90 %.1f / p95 %.1f ms",
        Quantiles.of(values, 0.50),
        Quantiles.of(values, 0.90),
        Quantiles.of(values, 0.95));
  }
}
