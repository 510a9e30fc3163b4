package dev.tokentrace.store.query;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import org.junit.jupiter.api.Test;

/** Why an attribution query printed no row: each missing step names its command. */
final class EmptyResultTest {
  private static final String DB = "--db run.duckdb";

  @Test
  void namesTheFirstMissingStepWithItsCommand() {
    assertThat(EmptyResult.reason(0, 0, 0, 0, 0, DB))
        .hasValueSatisfying(
            why ->
                assertThat(why)
                    .contains("no client rows")
                    .contains("tokentrace clients --db run.duckdb FILE|DIR"));
    assertThat(EmptyResult.reason(5, 0, 0, 0, 0, DB))
        .hasValueSatisfying(
            why ->
                assertThat(why)
                    .contains("no server records")
                    .contains("tokentrace ingest --db run.duckdb LOG..."));
    assertThat(EmptyResult.reason(5, 5, 0, 0, 0, DB))
        .hasValueSatisfying(
            why ->
                assertThat(why)
                    .contains("nothing is attributed yet (5 client rows, 5 server rows)")
                    .contains("tokentrace correlate --db run.duckdb"));
    assertThat(EmptyResult.reason(5, 5, 1, 5, 0, DB))
        .hasValueSatisfying(
            why ->
                assertThat(why)
                    .contains("none of the 5 attributed requests is included")
                    .contains("unmatched_requests"));
    assertThat(EmptyResult.reason(5, 5, 1, 5, 5, DB)).isEmpty();
  }

  @Test
  void readsTheCountsOfAnEmptyFileAndLeavesOtherQueriesAlone() {
    try (Database database = Database.open(DatabaseSettings.inMemory())) {
      EmptyResult empty = new EmptyResult(database);
      assertThat(empty.why("slowest_requests", DB))
          .hasValueSatisfying(why -> assertThat(why).contains("no client rows"));
      assertThat(empty.why("attribution_summary", DB)).isPresent();
      assertThat(empty.why("server_config", DB)).isEmpty();
    }
  }
}
