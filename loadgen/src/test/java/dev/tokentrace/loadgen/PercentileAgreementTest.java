package dev.tokentrace.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.correlate.attribution.AttributionSettings;
import dev.tokentrace.correlate.attribution.Attributor;
import dev.tokentrace.correlate.client.ClientLoadSettings;
import dev.tokentrace.correlate.client.ClientTimingLoader;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import dev.tokentrace.store.Queries;
import dev.tokentrace.store.SqlCatalog;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The P95 {@code loadgen} prints is the P95 the report computes from the client CSV it wrote: one
 * percentile definition, DuckDB's {@code quantile_cont}, on both sides.
 */
final class PercentileAgreementTest {
  private static final Instant ISSUED = Instant.parse("2026-03-02T09:00:00Z");
  private static final long MS = 1_000_000;
  private static final long US = 1_000;
  private static final Pattern PRINTED =
      Pattern.compile(
          "TTFT p50 ([0-9.]+) / p90 ([0-9.]+) / p95 ([0-9.]+) ms,"
              + " ITL p50 ([0-9.]+) / p90 ([0-9.]+) / p95 ([0-9.]+) ms");

  @TempDir Path dir;

  /** A successful request; times in µs so that the CSV's three decimals hold them exactly. */
  private static Outcome ok(int index, boolean warmup, long ttftUs, long lastUs, int tokens) {
    return new Outcome(
        "tt-" + index,
        warmup,
        ISSUED.plusMillis(index),
        0,
        0,
        ttftUs * US,
        lastUs * US,
        lastUs * US + MS,
        tokens,
        new double[0],
        200,
        Outcome.OK);
  }

  @Test
  void loadgenPrintsTheReportsPercentiles() throws Exception {
    // 23 measured requests with uneven TTFTs: P95 falls between two ranks, where nearest-rank and
    // quantile_cont differ (nearest-rank would print the 22nd value, 2100.0)
    List<Outcome> outcomes = new ArrayList<>();
    outcomes.add(ok(0, true, 9_000_000, 9_500_000, 10)); // warm-up: left out by both
    for (int i = 1; i <= 23; i++) {
      long ttftUs = i == 23 ? 4_000_000 : i == 22 ? 2_100_000 : 37_000L * i + 1_234;
      outcomes.add(ok(i, false, ttftUs, ttftUs + 13_000L * i + 777, 5 + i % 7));
    }
    outcomes.add(
        new Outcome(
            "tt-f", false, ISSUED, 0, 0, -1, -1, 13 * MS, null, new double[0], 503, "http 503"));

    LoadSummary summary = new LoadSummary();
    Path csv = dir.resolve("client_timings.csv");
    try (ClientTimingsFile out = ClientTimingsFile.create(csv, 128, 4)) {
      for (Outcome outcome : outcomes) {
        summary.add(outcome);
        out.write(outcome);
      }
    }
    Matcher printed = PRINTED.matcher(summary.describe());
    assertThat(printed.find()).as(summary.describe()).isTrue();

    try (Database db = Database.open(DatabaseSettings.from(dir.resolve("t.duckdb"), null, 1))) {
      Clock clock = Clock.fixed(ISSUED, ZoneOffset.UTC);
      new ClientTimingLoader(db, clock)
          .load(ClientLoadSettings.from(List.of(csv), "csv", "run", null, "test", null));
      new Attributor(db, clock).run(AttributionSettings.defaults(), "test");
      List<Map<String, Object>> rows =
          db.jdbi()
              .withHandle(
                  h ->
                      h.createQuery(SqlCatalog.get(Queries.CORE_METRICS))
                          .bind("group_by", "all")
                          .mapToMap()
                          .list());
      Map<String, Object> ftl = metric(rows, "ftl");
      Map<String, Object> mlt = metric(rows, "mlt");

      assertThat(ftl.get("requests")).isEqualTo(23L);
      assertThat(printed.group(1)).isEqualTo(oneDecimal(ftl.get("p50_ms")));
      assertThat(printed.group(2)).isEqualTo(oneDecimal(ftl.get("p90_ms")));
      assertThat(printed.group(3)).isEqualTo(oneDecimal(ftl.get("p95_ms"))).isNotEqualTo("2100.0");
      assertThat(printed.group(4)).isEqualTo(oneDecimal(mlt.get("p50_ms")));
      assertThat(printed.group(5)).isEqualTo(oneDecimal(mlt.get("p90_ms")));
      assertThat(printed.group(6)).isEqualTo(oneDecimal(mlt.get("p95_ms")));
    }
  }

  private static Map<String, Object> metric(List<Map<String, Object>> rows, String metric) {
    return rows.stream()
        .filter(row -> "all".equals(row.get("group_by")) && metric.equals(row.get("metric")))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no " + metric + " row in " + rows));
  }

  private static String oneDecimal(Object value) {
    return String.format(Locale.ROOT, "%.1f", ((Number) value).doubleValue());
  }
}
