package dev.tokentrace.simulator.pd;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Writes each SGLang prefill server's {@code /metrics} scrapes of a P/D run ({@code
 * prefill-N/metrics.prom}, every {@link #INTERVAL_US}, each behind a {@code # tokentrace scrape}
 * marker) with the KV transfer metrics of SGLang's scheduler
 * (docs/formats/pd.md#sglang-kv-transfer-metrics): the histograms {@code
 * sglang:kv_transfer_latency_ms} and {@code sglang:kv_transfer_total_mb} (SGLang's buckets) and the
 * counter {@code sglang:num_transfer_failed_reqs_total}, cumulative over the transfers finished by
 * the scrape (our model has no failed transfer). Simulated values.
 */
final class PdSglangMetrics {
  /** How often a scrape is saved (Prometheus' and our scraper's usual 10 s). */
  static final long INTERVAL_US = 10_000_000;

  private static final double[] LATENCY_BUCKETS = {
    1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000
  };
  private static final double[] TOTAL_BUCKETS = {1, 5, 10, 50, 100, 500, 1000, 5000, 10000};
  private static final double MB = 1 << 20;

  private PdSglangMetrics() {}

  static void write(PdScenario scenario, Path dir, List<PdRequest> requests) {
    long last = 0;
    for (PdRequest r : requests) {
      last = Math.max(last, done(r));
    }
    for (int p = 0; p < scenario.prefillServers(); p++) {
      Path file = dir.resolve(PdFiles.prefill(p)).resolve("metrics.prom");
      try {
        Files.createDirectories(file.getParent());
        try (BufferedWriter out = Files.newBufferedWriter(file, UTF_8)) {
          for (long at = 0; at <= last + INTERVAL_US; at += INTERVAL_US) {
            scrape(out, requests, p, at);
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot write " + file, e);
      }
    }
  }

  /** When the prefill server's transfer of {@code r} ended. */
  private static long done(PdRequest r) {
    return r.prefillFirstTokenUs() + r.kvTransferUs();
  }

  private static void scrape(BufferedWriter out, List<PdRequest> requests, int p, long atUs)
      throws IOException {
    long[] latency = new long[LATENCY_BUCKETS.length];
    long[] total = new long[TOTAL_BUCKETS.length];
    long count = 0;
    double latencySum = 0;
    double totalSum = 0;
    for (PdRequest r : requests) {
      if (r.prefillServer() != p || done(r) > atUs) {
        continue;
      }
      double ms = r.kvTransferUs() / 1e3;
      double mb = r.kvBytes() / MB;
      count++;
      latencySum += ms;
      totalSum += mb;
      count(latency, LATENCY_BUCKETS, ms);
      count(total, TOTAL_BUCKETS, mb);
    }
    String labels = "engine_type=\"prefill\",model_name=\"simulated\",pp_rank=\"0\",tp_rank=\"0\"";
    out.write("# tokentrace scrape " + PdFiles.START.plusNanos(atUs * 1000) + "\n");
    histogram(
        out, "sglang:kv_transfer_latency_ms", labels, LATENCY_BUCKETS, latency, latencySum, count);
    histogram(out, "sglang:kv_transfer_total_mb", labels, TOTAL_BUCKETS, total, totalSum, count);
    out.write("# TYPE sglang:num_transfer_failed_reqs_total counter\n");
    out.write("sglang:num_transfer_failed_reqs_total{" + labels + "} 0.0\n");
  }

  private static void count(long[] cumulative, double[] bounds, double value) {
    for (int i = 0; i < bounds.length; i++) {
      if (value <= bounds[i]) {
        cumulative[i]++;
      }
    }
  }

  private static void histogram(
      BufferedWriter out,
      String name,
      String labels,
      double[] bounds,
      long[] cumulative,
      double sum,
      long count)
      throws IOException {
    out.write("# TYPE " + name + " histogram\n");
    for (int i = 0; i < bounds.length; i++) {
      out.write(
          String.format(
              Locale.ROOT,
              "%s_bucket{le=\"%.1f\",%s} %d.0\n",
              name,
              bounds[i],
              labels,
              cumulative[i]));
    }
    out.write(String.format(Locale.ROOT, "%s_bucket{le=\"+Inf\",%s} %d.0\n", name, labels, count));
    out.write(String.format(Locale.ROOT, "%s_sum{%s} %.6f\n", name, labels, sum));
    out.write(String.format(Locale.ROOT, "%s_count{%s} %d.0\n", name, labels, count));
  }
}
