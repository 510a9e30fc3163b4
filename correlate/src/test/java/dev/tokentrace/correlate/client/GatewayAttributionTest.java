package dev.tokentrace.correlate.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.tokentrace.clients.ClientFiles;
import dev.tokentrace.clients.WrkClientTimingReader;
import dev.tokentrace.correlate.attribution.AttributionSettings;
import dev.tokentrace.correlate.attribution.Attributor;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three vantage points on a real DuckDB (sql/attribution/per_request.sql, vantage rules): a client
 * CSV, an NGINX access log and vLLM spans (queue 2 + prefill 40 + decode 700 = 742 ms each).
 */
final class GatewayAttributionTest {
  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2026-03-01T13:00:00Z"), ZoneOffset.UTC);

  @TempDir Path dir;
  private Database database;

  @BeforeEach
  void open() {
    database = Database.open(DatabaseSettings.inMemory());
  }

  @AfterEach
  void close() {
    database.close();
  }

  /** A line of our nginx log_format: end = start + duration, both on 2026-03-01T12:00:00Z. */
  private static String nginx(String id, double startS, double durationS) {
    return String.format(
        java.util.Locale.ROOT,
        "%.3f 200 %.3f \"%s\" \"ngx\" \"127.0.0.1:8000\" \"200\" \"0.001\" \"0.045\" \"%.3f\" 99%n",
        1_772_366_400 + startS + durationS,
        durationS,
        id,
        durationS - 0.002);
  }

  private void load(String run, Path file) {
    new ClientTimingLoader(database, CLOCK)
        .load(ClientLoadSettings.from(List.of(file), "auto", run, null, "clients", 1.0));
  }

  @Test
  void splitsNetworkAtTheGatewayAndAttributesGatewayOnlyRequestsFromItsView() throws Exception {
    load(
        "bench",
        ClientFiles.write(
            dir,
            "client.csv",
            "request_id,start_ts,ttft_ms,e2e_ms,output_tokens\n"
                + "g1,2026-03-01T12:00:00.090Z,70,800,8\n"
                + "g3,2026-03-01T12:00:00.090Z,70,800,8\n"));
    load(
        "gateway",
        ClientFiles.write(
            dir,
            "access.log",
            nginx("g1", 0.095, 0.780)
                + nginx("g2", 0.095, 0.760)
                + nginx("g3", 0.095, 0.780)
                + nginx("g3", 0.095, 0.781)));
    ServerEvents.insert(
        database,
        ServerEvents.parseVllm(
            ServerEvents.span("g1", 8), ServerEvents.span("g2", 8), ServerEvents.span("g3", 8)));

    new Attributor(database, CLOCK).run(AttributionSettings.defaults(), "correlate");

    List<Map<String, Object>> rows =
        database
            .jdbi()
            .withHandle(
                handle ->
                    handle
                        .createQuery(
                            "SELECT request_key, run_id, join_status, vantage, timing_view,"
                                + " gateway_rows, round(network_ms, 3) AS network,"
                                + " round(network_client_gateway_ms, 3) AS client_gateway,"
                                + " round(network_gateway_engine_ms, 3) AS gateway_engine,"
                                + " included, confidence FROM request_attribution ORDER BY 1")
                        .mapToMap()
                        .list());
    assertThat(rows)
        .extracting(
            row -> row.get("request_key"),
            row -> row.get("run_id"),
            row -> row.get("join_status"),
            row -> row.get("vantage"),
            row -> row.get("timing_view"),
            row -> row.get("gateway_rows"),
            row -> row.get("network"),
            row -> row.get("client_gateway"),
            row -> row.get("gateway_engine"),
            row -> row.get("included"),
            row -> row.get("confidence"))
        .containsExactly(
            tuple(
                "g1",
                "bench",
                "matched",
                "client+gateway",
                "ttft",
                1,
                58.0,
                20.0,
                38.0,
                true,
                "high"),
            tuple("g2", "gateway", "matched", "gateway", "e2e", 1, 18.0, null, 18.0, true, "high"),
            // two gateway lines for one client request: listed, not split
            tuple("g3", "bench", "matched", "client", "ttft", 2, 58.0, null, null, true, "high"));
  }

  @Test
  void attributesEndToEndOnlyClientsByTheEndToEndView() throws Exception {
    load(
        "wrk",
        ClientFiles.write(
            dir,
            "wrk.csv",
            WrkClientTimingReader.HEADER + "\ng1,1772366400090000,1772366400890000,200,512\n"));
    ServerEvents.insert(database, ServerEvents.parseVllm(ServerEvents.span("g1", 8)));

    new Attributor(database, CLOCK).run(AttributionSettings.defaults(), "correlate");

    Map<String, Object> row =
        database
            .jdbi()
            .withHandle(
                handle ->
                    handle
                        .createQuery(
                            "SELECT vantage, timing_view, round(network_ms, 3) AS network,"
                                + " network_ttft_ms, included, dominant FROM request_attribution")
                        .mapToMap()
                        .one());
    assertThat(row)
        .containsEntry("vantage", "client")
        .containsEntry("timing_view", "e2e")
        .containsEntry("network", 58.0)
        .containsEntry("network_ttft_ms", null)
        .containsEntry("included", true)
        .containsEntry("dominant", "decode");
  }
}
