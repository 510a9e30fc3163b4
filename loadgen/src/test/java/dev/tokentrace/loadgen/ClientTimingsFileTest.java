package dev.tokentrace.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.correlate.client.ClientLoadResult;
import dev.tokentrace.correlate.client.ClientLoadSettings;
import dev.tokentrace.correlate.client.ClientTimingLoader;
import dev.tokentrace.measure.ClientCsv;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class ClientTimingsFileTest {
  private static final Instant ISSUED = Instant.parse("2026-03-02T09:00:00.123456Z");
  private static final long MS = 1_000_000;

  @TempDir Path dir;

  private static Outcome ok(String id, boolean warmup) {
    return new Outcome(
        id,
        warmup,
        ISSUED,
        0,
        2 * MS,
        50 * MS,
        250 * MS,
        260 * MS,
        20,
        new double[] {1.5, 2.25},
        200,
        Outcome.OK);
  }

  private static Outcome failed(String status) {
    return new Outcome(
        "tt-9", false, ISSUED, 0, 0, -1, -1, 13 * MS, null, new double[0], 503, status);
  }

  @Test
  void writesTimesFromTheIssueIncludingTheClientQueue() {
    assertThat(ClientTimingsFile.row(ok("tt-1", false), 128, 8))
        .isEqualTo("tt-1,2026-03-02T09:00:00.123456Z,50.000,250.000,20,2.000,128,8,ok,false");
  }

  @Test
  void aFailedRequestKeepsItsStatusAndNoTtftOrTokens() {
    assertThat(ClientTimingsFile.row(failed("http 503"), 128, 0))
        .isEqualTo("tt-9,2026-03-02T09:00:00.123456Z,,13.000,,0.000,128,,http 503,false");
  }

  @Test
  void quotesAStatusWithACommaOrQuote() {
    assertThat(ClientTimingsFile.row(failed("error: a, \"b\""), 128, 0))
        .endsWith(",128,,\"error: a, \"\"b\"\"\",false");
  }

  @Test
  void interTokenLatenciesGoToTheirOwnFile() {
    assertThat(ItlCsv.row(ok("tt-1", false))).isEqualTo("tt-1,1.500;2.250");
  }

  @Test
  void theClientsCommandLoadsEveryRowWithoutComplaint() throws Exception {
    Path csv = dir.resolve("client_timings.csv");
    try (ClientTimingsFile out = ClientTimingsFile.create(csv, 128, 8)) {
      out.write(ok("tt-0", true));
      out.write(ok("tt-1", false));
      out.write(failed("error: connection refused, twice"));
    }
    assertThat(Files.readAllLines(csv).get(0)).isEqualTo(ClientCsv.HEADER);
    try (Database db = Database.open(DatabaseSettings.from(dir.resolve("t.duckdb"), null, 1))) {
      ClientLoadResult result =
          new ClientTimingLoader(db, Clock.fixed(ISSUED, ZoneOffset.UTC))
              .load(ClientLoadSettings.from(List.of(csv), "csv", "run", null, "test", null));

      assertThat(result.messages()).isEmpty();
      assertThat(result.rows()).isEqualTo(3);
      assertThat(result.rejected()).isZero();
    }
  }
}
