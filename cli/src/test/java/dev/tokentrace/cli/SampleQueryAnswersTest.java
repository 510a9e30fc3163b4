package dev.tokentrace.cli;

import static dev.tokentrace.cli.ClientRows.number;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.ServerNotice;
import dev.tokentrace.store.Database;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The queries about what could not be paired and about server notices, on two checked-in samples
 * whose answer their own files give: vllm/v0.16-retries (truth.csv lists the attempts a client
 * timeout retried with the same ID; its client file is edited here to lose two requests and gain
 * one the server never saw) and sglang/v0.5.6-preemption (the retract warnings of its log).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
final class SampleQueryAnswersTest {
  private static final String RETRIES = "vllm-v0.16-retries";
  private static final String PREEMPTION = "sglang-v0.5.6-preemption";
  private static final String GHOST = "ghost-request-1";

  private Path db;
  private SampleScenarios.Scenario retries;
  private SampleScenarios.Scenario preemption;
  private List<String> dropped;
  private @Nullable String clientRetry;

  @BeforeAll
  void load(@TempDir Path dir) throws Exception {
    for (SampleScenarios.Scenario scenario : SampleScenarios.find(GoldenSamplesTest.SAMPLES)) {
      if (scenario.id().equals(RETRIES)) {
        retries = scenario;
      } else if (scenario.id().equals(PREEMPTION)) {
        preemption = scenario;
      }
    }
    List<String> lines = Files.readAllLines(retries.clientFile());
    List<String> kept = new ArrayList<>(lines.subList(0, 1));
    dropped = new ArrayList<>();
    for (String line : lines.subList(1, lines.size())) {
      String id = line.substring(0, line.indexOf(','));
      if (dropped.size() < 2 && !retried().contains(id)) {
        dropped.add(id);
      } else {
        kept.add(line);
        if (clientRetry == null && !retried().contains(id)) {
          // The client retried this one with the same ID: two client rows, one server record.
          clientRetry = id;
          kept.add(line);
        }
      }
    }
    kept.add(GHOST + ",2026-02-24T09:00:01.000000Z,30.000,900.000,100,0.000,300,16,ok,false");
    Path client =
        ScenarioDatabase.write(
            dir.resolve("edited").resolve("client_timings.csv"), String.join("\n", kept) + "\n");
    try (Database database = ScenarioDatabase.open(dir, "samples")) {
      ScenarioDatabase.load(database, retries, client);
      ScenarioDatabase.load(database, preemption);
      ScenarioDatabase.attribute(database);
    }
    db = dir.resolve("samples.duckdb");
  }

  @Test
  void unmatchedRequestsListClientOnlyServerOnlyAndRetriedKeysWithTheirReason() {
    List<Map<String, Object>> rows = SqlRuns.rows(db, "unmatched_requests");
    assertThat(keysOf(rows, "client_only")).containsExactly(GHOST);
    assertThat(rows)
        .filteredOn(row -> row.get("kind").equals("client_only"))
        .singleElement()
        .satisfies(row -> assertThat(row.get("reason")).isEqualTo("no server record"));
    assertThat(keysOf(rows, "server_only")).containsExactlyInAnyOrderElementsOf(dropped);
    // Server-side retries whose final attempt is told apart are attributed once (retried_requests
    // lists them); a key the client itself sent twice stays a duplicate, never attributed.
    // (one row per client row).
    assertThat(keysOf(rows, "duplicate")).containsExactly(clientRetry, clientRetry);
    assertThat(rows)
        .filteredOn(row -> row.get("kind").equals("duplicate"))
        .allSatisfy(row -> assertThat((String) row.get("reason")).isEqualTo("retry: client rows"));
    assertThat(SqlRuns.rows(db, "unmatched_requests", "kind=server_only")).hasSize(2);
  }

  @Test
  void retriedRequestsAreTheAttemptsTheServerSawTwiceEachAttributedOnce() {
    List<Map<String, Object>> serverRetries =
        SqlRuns.rows(db, "retried_requests", "kind=server_retry");
    assertThat(serverRetries.stream().map(row -> (String) row.get("request_key")))
        .containsExactlyInAnyOrderElementsOf(retried());
    assertThat(serverRetries)
        .allSatisfy(row -> assertThat(SqlRuns.number(row, "attributed_rows")).isEqualTo(1));
    assertThat(SqlRuns.rows(db, "retried_requests", "kind=client_retry"))
        .singleElement()
        .satisfies(
            row -> {
              assertThat(row.get("request_key")).isEqualTo(clientRetry);
              assertThat(SqlRuns.number(row, "attributed_rows")).isZero();
            });
  }

  @Test
  void noticesNearSlowCountTheRetractWarningsAroundEachSlowRequest() {
    double offsetMs =
        SqlRuns.number(
            SqlRuns.rows(db, "clock_offsets").stream()
                .filter(row -> row.get("run_id").equals(PREEMPTION))
                .findFirst()
                .orElseThrow(),
            "offset_ms");
    List<Instant> notices =
        ScenarioDatabase.parse(preemption).stream()
            .filter(event -> event instanceof ServerNotice)
            .filter(event -> ((ServerNotice) event).kind() == ServerNotice.Kind.PREEMPTION)
            .map(EngineEvent::ts)
            .toList();
    List<Map<String, String>> slowest =
        ClientRows.read(preemption.clientFile()).stream()
            .sorted((a, b) -> Double.compare(number(b, "e2e_ms"), number(a, "e2e_ms")))
            .limit(5)
            .toList();
    Map<String, Long> expected = new TreeMap<>();
    for (Map<String, String> request : slowest) {
      Instant start =
          Instant.parse(request.get("start_ts")).plusNanos((long) (offsetMs * 1_000_000));
      Instant from = start.minusMillis(5000);
      Instant to = start.plusNanos((long) (number(request, "e2e_ms") * 1_000_000)).plusMillis(1000);
      long count = notices.stream().filter(ts -> !ts.isBefore(from) && !ts.isAfter(to)).count();
      if (count > 0) {
        expected.put(request.get("request_id"), count);
      }
    }
    Map<String, Long> actual = new TreeMap<>();
    for (Map<String, Object> row :
        SqlRuns.rows(db, "notices_near_slow", "run_id=" + PREEMPTION, "limit=5")) {
      assertThat(row.get("kind")).isEqualTo("preemption");
      actual.merge((String) row.get("request_key"), 1L, Long::sum);
    }
    assertThat(expected).isNotEmpty();
    assertThat(actual).isEqualTo(expected);
  }

  /** The request IDs whose first attempt timed out after reaching the server (truth.csv). */
  private List<String> retried() {
    return ClientRows.read(retries.dir().resolve("truth.csv")).stream()
        .filter(row -> row.get("final").equals("false") && !row.get("server_request_id").isEmpty())
        .map(row -> row.get("request_id"))
        .distinct()
        .toList();
  }

  private static List<String> keysOf(List<Map<String, Object>> rows, String kind) {
    return rows.stream()
        .filter(row -> row.get("kind").equals(kind))
        .map(row -> (String) row.get("request_key"))
        .toList();
  }
}
