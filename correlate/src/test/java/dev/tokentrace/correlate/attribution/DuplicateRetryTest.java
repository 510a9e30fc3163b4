package dev.tokentrace.correlate.attribution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import dev.tokentrace.store.Queries;
import dev.tokentrace.store.SqlCatalog;
import dev.tokentrace.store.rows.DataQuality;
import java.sql.Types;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The same key twice on either side (the seed's pitfall: client retries inflating load): detected,
 * reported by kind, never attributed, never double-counted.
 */
final class DuplicateRetryTest {
  private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");

  private Database database;
  private Attributor attributor;

  @BeforeEach
  void open() {
    database = Database.open(DatabaseSettings.inMemory());
    attributor = new Attributor(database, HandComputedDataset.CLOCK);
    Rows rows = new Rows(database);
    // a clean request
    rows.client(Rows.Client.sent("run", "clean", T0, 300, 1200, 40));
    rows.timing(Rows.Timing.span("clean", T0.plusMillis(3), 40));
    // the client retried with the same ID and recorded both attempts
    rows.client(Rows.Client.sent("run", "client-retry", T0.plusSeconds(1), 300, 1200, 40));
    rows.client(Rows.Client.sent("run", "client-retry", T0.plusSeconds(31), 300, 1200, 40));
    rows.timing(Rows.Timing.span("client-retry", T0.plusSeconds(31), 40));
    // the client recorded one attempt, the server saw the ID arrive twice (first attempt aborted)
    rows.client(Rows.Client.sent("run", "server-retry", T0.plusSeconds(2), 300, 1200, 40));
    rows.arrival("server-retry", "gpu-0", T0.plusSeconds(2));
    rows.aborted("server-retry", "gpu-0");
    rows.arrival("server-retry", "gpu-0", T0.plusSeconds(32));
    rows.timing(Rows.Timing.span("server-retry", T0.plusSeconds(32), 40));
    // the first attempt was aborted and only the retry was logged as an arrival
    rows.client(Rows.Client.sent("run", "aborted-once", T0.plusSeconds(3), 300, 1200, 40));
    rows.aborted("aborted-once", "gpu-0");
    rows.timing(Rows.Timing.span("aborted-once", T0.plusSeconds(33), 40));
    // n = 2: two spans of one source kind for one client request
    rows.client(Rows.Client.sent("run", "children", T0.plusSeconds(4), 300, 1200, 40));
    rows.timing(Rows.Timing.span("children", T0.plusSeconds(4), 40));
    rows.timing(Rows.Timing.span("children", T0.plusSeconds(4), 40));
  }

  @AfterEach
  void close() {
    database.close();
  }

  @Test
  void marksEveryRepeatedKeyDuplicateWithWhyAndAttributesOnlyTheCleanOne() {
    attributor.run(AttributionSettings.defaults(), "test");

    assertThat(attributor.requests())
        .extracting(
            RequestAttribution::requestId,
            RequestAttribution::joinStatus,
            RequestAttribution::duplicateReason,
            RequestAttribution::included)
        .containsExactly(
            tuple("clean", "matched", null, true),
            tuple("client-retry", "duplicate", "client rows", false),
            tuple("client-retry", "duplicate", "client rows", false),
            tuple("server-retry", "duplicate", "server arrivals", false),
            tuple("aborted-once", "matched", null, true),
            tuple("children", "duplicate", "server records", false));
    DataQuality quality = attributor.dataQuality();
    assertThat(quality.duplicateRows()).isEqualTo(4);
    assertThat(quality.duplicateClientKeys()).isEqualTo(1);
    assertThat(quality.duplicateServerKeys()).isEqualTo(1);
    assertThat(quality.serverRetriedKeys()).isEqualTo(1);
    assertThat(quality.includedRows()).isEqualTo(2);
    assertThat(totalRequests())
        .as("aggregates count each request once: the two clean ones")
        .isEqualTo(2L);
  }

  @Test
  void listsRetriesByKind() {
    attributor.run(AttributionSettings.defaults(), "test");
    List<Map<String, Object>> retried =
        database
            .jdbi()
            .withHandle(
                handle ->
                    handle
                        .createQuery(SqlCatalog.get(Queries.RETRIED_REQUESTS))
                        .bindNull("kind", Types.VARCHAR)
                        .mapToMap()
                        .list());

    assertThat(retried)
        .extracting(
            row -> row.get("kind"),
            row -> row.get("request_key"),
            row -> row.get("client_rows"),
            row -> row.get("server_arrivals"),
            row -> row.get("server_timing_rows"),
            row -> row.get("server_aborts"),
            row -> row.get("attributed_rows"))
        .containsExactly(
            tuple("client_retry", "client-retry", 2L, 0L, 1L, 0L, 0L),
            tuple("multi_record", "children", 1L, 0L, 2L, 0L, 0L),
            tuple("server_retry", "aborted-once", 1L, 0L, 1L, 1L, 1L),
            tuple("server_retry", "server-retry", 1L, 2L, 1L, 1L, 0L));
  }

  private long totalRequests() {
    return database
        .jdbi()
        .withHandle(
            handle ->
                handle
                    .createQuery(SqlCatalog.get(Queries.ATTRIBUTION_SUMMARY))
                    .bindNull("group_by", Types.VARCHAR)
                    .bindNull("run_id", Types.VARCHAR)
                    .bindNull("components", Types.VARCHAR)
                    .mapToMap()
                    .list())
        .stream()
        .filter(row -> "all".equals(row.get("group_by")) && "total".equals(row.get("component")))
        .mapToLong(row -> ((Number) row.get("requests")).longValue())
        .sum();
  }
}
