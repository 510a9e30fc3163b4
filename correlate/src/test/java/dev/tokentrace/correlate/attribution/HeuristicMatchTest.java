package dev.tokentrace.correlate.attribution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import dev.tokentrace.store.TestQueries;
import dev.tokentrace.store.rows.DataQuality;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code --match heuristic}: one-to-one pairing without IDs, labelled heuristic everywhere. */
final class HeuristicMatchTest {
  private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");
  private static final AttributionSettings HEURISTIC =
      AttributionSettings.defaults().withMatch(MatchSettings.from("heuristic", null, null, null));

  private Database database;
  private Rows rows;
  private Attributor attributor;

  @BeforeEach
  void open() {
    database = Database.open(DatabaseSettings.inMemory());
    rows = new Rows(database);
    attributor = new Attributor(database, HandComputedDataset.CLOCK);
  }

  @AfterEach
  void close() {
    database.close();
  }

  private Map<String, RequestAttribution> attribute(AttributionSettings settings) {
    attributor.run(settings, "test");
    return attributor.requests().stream()
        .collect(Collectors.toMap(RequestAttribution::requestId, request -> request));
  }

  private List<Map<String, Object>> matches() {
    return TestQueries.rows(
        database,
        "SELECT c.request_id, m.server_request_key, m.candidates, m.time_diff_ms"
            + " FROM request_matches m JOIN client_timing c ON c.run_id = m.run_id"
            + " AND c.source_path = m.client_source_path AND c.source_line = m.client_source_line"
            + " ORDER BY c.request_id");
  }

  @Test
  void pairsAClientWithoutIdsByTokenCountsOnlyWhenAsked() {
    // SGLang bench: no IDs, no start times; the server's rids are its own
    rows.client(Rows.Client.local("sg", "sglang-bench#1", 150, 1500, 64, 37));
    rows.client(Rows.Client.local("sg", "sglang-bench#2", 180, 2100, 128, 51));
    rows.timing(Rows.Timing.span("rid-a", T0, 51).withTokens(128, 51));
    rows.timing(Rows.Timing.span("rid-b", T0.plusMillis(40), 37).withTokens(64, 37));

    Map<String, RequestAttribution> byId = attribute(AttributionSettings.defaults());
    assertThat(byId.values()).allSatisfy(r -> assertThat(r.joinStatus()).isEqualTo("client_only"));
    assertThat(attributor.dataQuality().unjoinableRows()).isEqualTo(2);
    assertThat(attributor.dataQuality().serverOnlyKeys()).isEqualTo(2);

    byId = attribute(HEURISTIC);
    assertThat(matches())
        .extracting(
            m -> m.get("request_id"), m -> m.get("server_request_key"), m -> m.get("time_diff_ms"))
        .containsExactly(
            tuple("sglang-bench#1", "rid-b", null), tuple("sglang-bench#2", "rid-a", null));
    RequestAttribution first = byId.get("sglang-bench#1");
    assertThat(first.joinStatus()).isEqualTo("heuristic");
    assertThat(first.confidence()).isEqualTo("heuristic");
    assertThat(first.matchMethod()).isEqualTo("heuristic");
    assertThat(first.included()).isTrue();
    // network = 1500 - (2 + 20 + 100)
    assertThat(first.networkMs()).isEqualTo(1378.0);
    DataQuality quality = attributor.dataQuality();
    assertThat(quality.heuristicRows()).isEqualTo(2);
    assertThat(quality.unjoinableRows()).isZero();
    assertThat(quality.serverOnlyKeys()).isZero();
    assertThat(quality.summary()).contains("heuristic=2");
  }

  @Test
  void leavesAPairingWithoutTimesAndSeveralCandidatesOutOfTheAggregates() {
    rows.client(Rows.Client.local("sg", "sglang-bench#1", 150, 1500, 64, 37));
    rows.timing(Rows.Timing.span("rid-a", T0, 37).withTokens(64, 37));
    rows.timing(Rows.Timing.span("rid-b", T0.plusSeconds(3), 37).withTokens(64, 37));

    RequestAttribution only = attribute(HEURISTIC).get("sglang-bench#1");
    assertThat(only.joinStatus()).isEqualTo("heuristic");
    assertThat(only.matchCandidates()).isEqualTo(2);
    assertThat(only.included()).isFalse();
    assertThat(only.exclusion()).isEqualTo("ambiguous match");
    assertThat(attributor.dataQuality().ambiguousRows()).isEqualTo(1);
  }

  @Test
  void pairsByTimeWindowOneToOneWhenTheServerIgnoredTheClientsIds() {
    // AIPerf against SGLang: X-Request-Id sent, SGLang kept its own rids; two requests 30 ms apart
    // with the same token counts are told apart by time, each server request used once
    rows.client(Rows.Client.sent("ai", "uuid-1", T0, 300, 1200, 40));
    rows.client(Rows.Client.sent("ai", "uuid-2", T0.plusMillis(30), 300, 1200, 40));
    rows.client(Rows.Client.sent("ai", "uuid-3", T0.plusSeconds(10), 300, 1200, 40));
    rows.timing(Rows.Timing.span("rid-2", T0.plusMillis(34), 40));
    rows.timing(Rows.Timing.span("rid-1", T0.plusMillis(5), 40));
    rows.timing(Rows.Timing.span("rid-far", T0.plusSeconds(5), 40));

    Map<String, RequestAttribution> byId = attribute(HEURISTIC);
    assertThat(matches())
        .extracting(
            m -> m.get("request_id"), m -> m.get("server_request_key"), m -> m.get("time_diff_ms"))
        .containsExactly(tuple("uuid-1", "rid-1", 5.0), tuple("uuid-2", "rid-2", 4.0));
    assertThat(byId.get("uuid-3").joinStatus()).as("nothing within 1 s").isEqualTo("client_only");
    assertThat(byId.get("uuid-1").included()).isTrue();
  }

  @Test
  void neverTakesAServerRequestThatAnIdAlreadyJoined() {
    rows.client(Rows.Client.sent("ai", "shared", T0, 300, 1200, 40));
    rows.client(Rows.Client.local("ai", "local-1", 300, 1200, 100, 40).withStart(T0.plusMillis(2)));
    rows.timing(Rows.Timing.span("shared", T0.plusMillis(3), 40));

    Map<String, RequestAttribution> byId = attribute(HEURISTIC);
    assertThat(byId.get("shared").joinStatus()).isEqualTo("matched");
    assertThat(byId.get("shared").matchMethod()).isEqualTo("id");
    assertThat(byId.get("local-1").joinStatus()).isEqualTo("client_only");
    assertThat(matches()).isEmpty();
  }

  @Test
  void usesTheRunsClockOffsetFromIdPairsToPlaceRowsWithoutIds() {
    // the client host runs 2.5 s behind the server; five requests carry IDs the server logged
    for (int i = 0; i < 5; i++) {
      rows.client(Rows.Client.sent("mixed", "id-" + i, T0.plusSeconds(i), 300, 1200, 40));
      rows.timing(Rows.Timing.span("id-" + i, T0.plusSeconds(i).plusMillis(2_503), 40));
    }
    rows.client(
        Rows.Client.local("mixed", "no-id", 300, 1200, 100, 41).withStart(T0.plusSeconds(20)));
    rows.timing(Rows.Timing.span("rid-x", T0.plusSeconds(20).plusMillis(2_510), 41));

    RequestAttribution noId = attribute(HEURISTIC).get("no-id");
    assertThat(noId.joinStatus()).as("2.5 s gap, but 7 ms once aligned").isEqualTo("heuristic");
    assertThat(noId.clockOffsetMs()).isEqualTo(2503.0);
    assertThat(matches()).extracting(m -> m.get("time_diff_ms")).containsExactly(7.0);
  }

  @Test
  void rejectsCandidatesWhoseTokensOrDurationsCannotBeTheSameRequest() {
    rows.client(Rows.Client.local("sg", "tokens", 150, 1500, 64, 37).withStart(T0));
    rows.timing(Rows.Timing.span("rid-other-tokens", T0.plusMillis(1), 90));
    rows.client(Rows.Client.local("sg", "short", 50, 100, 100, 20).withStart(T0.plusSeconds(5)));
    rows.timing(Rows.Timing.span("rid-too-long", T0.plusSeconds(5).plusMillis(1), 20));

    Map<String, RequestAttribution> byId = attribute(HEURISTIC);
    assertThat(byId.get("tokens").joinStatus()).isEqualTo("client_only");
    assertThat(byId.get("short").joinStatus())
        .as("a 122 ms server request cannot fit in a 100 ms client one")
        .isEqualTo("client_only");
  }
}
