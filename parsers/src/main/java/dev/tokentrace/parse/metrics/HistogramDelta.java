package dev.tokentrace.parse.metrics;

import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * One histogram series as scraped (cumulative bucket counts by upper bound in seconds, sum, count),
 * and the arithmetic on it: the difference between two scrapes and Prometheus' {@code
 * histogram_quantile} estimate (docs/formats/metrics.md#server_histogram). Mutable while a scrape
 * is read; not thread-safe.
 */
final class HistogramDelta {
  final TreeMap<Double, Double> buckets = new TreeMap<>();
  double sum;
  boolean hasSum;
  private int parts;
  double count;

  /**
   * {@code this − before}, series by series; a series whose count went down was reset (the server
   * restarted) and counts from zero.
   */
  HistogramDelta minus(@Nullable HistogramDelta before) {
    HistogramDelta delta = new HistogramDelta();
    boolean reset = before == null || count < before.count;
    for (Map.Entry<Double, Double> bucket : buckets.entrySet()) {
      double earlier = reset ? 0 : before.buckets.getOrDefault(bucket.getKey(), 0.0);
      delta.buckets.put(bucket.getKey(), Math.max(0, bucket.getValue() - earlier));
    }
    delta.sum = reset ? sum : Math.max(0, sum - before.sum);
    delta.hasSum = hasSum && (reset || before.hasSum);
    delta.count = reset ? count : count - before.count;
    return delta;
  }

  /**
   * Adds another series' delta (a metric summed over its label sets); a sum missing in one is
   * missing.
   */
  void add(HistogramDelta other) {
    hasSum = (parts++ == 0 || hasSum) && other.hasSum;
    for (Map.Entry<Double, Double> bucket : other.buckets.entrySet()) {
      buckets.merge(bucket.getKey(), bucket.getValue(), Double::sum);
    }
    sum += other.sum;
    count += other.count;
  }

  /**
   * The q-quantile in seconds, linear within its bucket from the bucket below's bound (0 for the
   * first); in the {@code +Inf} bucket, the largest finite bound. Null without observations.
   */
  @Nullable Double quantile(double q) {
    Double total = buckets.isEmpty() ? null : buckets.lastEntry().getValue();
    if (total == null || total <= 0) {
      return null;
    }
    double rank = q * total;
    double lowerBound = 0;
    double lowerCount = 0;
    for (Map.Entry<Double, Double> bucket : buckets.entrySet()) {
      double upper = bucket.getKey();
      double cumulative = bucket.getValue();
      if (cumulative >= rank) {
        if (Double.isInfinite(upper)) {
          return lowerBound;
        }
        double inBucket = cumulative - lowerCount;
        double fraction = inBucket <= 0 ? 1 : (rank - lowerCount) / inBucket;
        return lowerBound + (upper - lowerBound) * fraction;
      }
      lowerBound = upper;
      lowerCount = cumulative;
    }
    return lowerBound;
  }

  /** {@code 0.01:3,0.1:7,+Inf:9}: upper bounds in seconds and cumulative counts. */
  String bucketText() {
    StringBuilder text = new StringBuilder();
    for (Map.Entry<Double, Double> bucket : buckets.entrySet()) {
      if (text.length() > 0) {
        text.append(',');
      }
      double upper = bucket.getKey();
      text.append(Double.isInfinite(upper) ? "+Inf" : trim(upper)).append(':');
      text.append(trim(bucket.getValue()));
    }
    return text.toString();
  }

  private static String trim(double value) {
    return value == Math.rint(value) && Math.abs(value) < 1e15
        ? Long.toString((long) value)
        : Double.toString(value);
  }
}
