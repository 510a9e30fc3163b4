package dev.tokentrace.correlate.live;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tokentrace.correlate.attribution.Attributor;
import dev.tokentrace.correlate.client.ClientTimingLoader;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.lake.LakeTableVersions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An attribution computed from a lake and stored in it whole (docs/scale.md#stored-results): its
 * {@code request_attribution}, {@code clock_offsets} and the report's stored results ({@code
 * attribution_results}) as versions of the lake's versioned tables, the last written holding one
 * state row ({@value #STATE_QUERY}) that names the other two versions, the lake snapshot they were
 * computed from and the rules. {@code spark-correlate} writes it; a lake reader that copied exactly
 * that snapshot ({@link LakeEvents#copy}) adopts it instead of attributing again, so {@code report
 * --lake} shows Spark's attribution and reads the results stored with it.
 */
public final class LakeStoredResults {
  /** The stored results' table (sql/schema/011_attribution_results.sql). */
  public static final String TABLE = "attribution_results";

  /** The {@code query} of the state row in {@value #TABLE}. */
  public static final String STATE_QUERY = "lake/attribution_state";

  private static final String CLOCK_OFFSETS = "clock_offsets";
  private static final Logger log = LoggerFactory.getLogger(LakeStoredResults.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  private LakeStoredResults() {}

  /**
   * What the stored results and the two other versions were computed from.
   *
   * @param runId the attribution's run, the {@code run_id} of every stored result
   * @param attributionFile the {@code request_attribution} version's file name
   * @param clockOffsetsFile the {@code clock_offsets} version's file name
   * @param snapshot the lake snapshot's fingerprint ({@link LakeEvents#fingerprint})
   * @param params the rules ({@link Attributor#params})
   * @param command the command that computed them
   * @param started when it started (ISO-8601, UTC)
   */
  public record State(
      @JsonProperty("run_id") String runId,
      @JsonProperty("attribution_file") String attributionFile,
      @JsonProperty("clock_offsets_file") String clockOffsetsFile,
      @JsonProperty("snapshot") String snapshot,
      @JsonProperty("params") String params,
      @JsonProperty("command") String command,
      @JsonProperty("started") String started) {
    public State {
      requireNonNull(runId, "runId is null");
      requireNonNull(attributionFile, "attributionFile is null");
      requireNonNull(clockOffsetsFile, "clockOffsetsFile is null");
      requireNonNull(snapshot, "snapshot is null");
      requireNonNull(params, "params is null");
      requireNonNull(command, "command is null");
      requireNonNull(started, "started is null");
    }
  }

  /**
   * Adds the state row to {@code connection}'s {@value #TABLE} (the results of {@code
   * state.runId()} already there) and writes the table as the lake's next version: the commit of
   * the whole stored attribution.
   */
  public static LakeTableVersions.Written write(
      Connection connection, Path lake, State state, Duration grace) {
    requireNonNull(state, "state is null");
    try (PreparedStatement insert =
        connection.prepareStatement("INSERT INTO " + TABLE + " VALUES (?, ?, '', ?)")) {
      insert.setString(1, state.runId());
      insert.setString(2, STATE_QUERY);
      insert.setString(3, JSON.writeValueAsString(state));
      insert.executeUpdate();
      return LakeTableVersions.write(
          connection,
          lake,
          TABLE,
          "FROM " + TABLE + " WHERE run_id = " + literal(state.runId()),
          grace);
    } catch (SQLException e) {
      throw new IllegalStateException(
          "lake " + lake + ": cannot write " + TABLE + ": " + e.getMessage(), e);
    } catch (IOException e) {
      throw new UncheckedIOException("lake " + lake + ": cannot write " + TABLE, e);
    }
  }

  /**
   * The stored attribution's state when it is whole and current for the lake's pointers (the
   * versions it names are the committed ones), else null.
   */
  public static @Nullable State current(Path lake, Connection connection) throws SQLException {
    LakeTableVersions.Version results = LakeTableVersions.current(lake, TABLE);
    LakeTableVersions.Version attribution = LakeTableVersions.current(lake, LakeAttribution.TABLE);
    LakeTableVersions.Version offsets = LakeTableVersions.current(lake, CLOCK_OFFSETS);
    if (results == null || attribution == null || offsets == null) {
      return null;
    }
    String json = null;
    try (PreparedStatement select =
        connection.prepareStatement(
            "SELECT rows_json FROM read_parquet("
                + literal(results.path(lake).toString())
                + ") WHERE query = ?")) {
      select.setString(1, STATE_QUERY);
      try (ResultSet row = select.executeQuery()) {
        if (row.next()) {
          json = row.getString(1);
        }
      }
    }
    if (json == null) {
      return null;
    }
    State state;
    try {
      state = JSON.readValue(json, State.class);
    } catch (JsonProcessingException e) {
      log.warn("lake {}: stored attribution state unreadable: {}", lake, e.getOriginalMessage());
      return null;
    }
    return state.attributionFile().equals(attribution.file())
            && state.clockOffsetsFile().equals(offsets.file())
        ? state
        : null;
  }

  /**
   * Adopts the lake's stored attribution into {@code database} when it was computed from exactly
   * the snapshot {@code copied} just copied and the file adds no client rows of its own (runs that
   * {@code clients} loaded): {@code request_attribution}, {@code clock_offsets} and {@code
   * attribution_results} are replaced by the lake's versions and the attribution becomes current
   * ({@link Attributor#adopt}). Returns the adopted run, or null when nothing was adopted.
   *
   * @throws IllegalStateException naming the lake when DuckDB fails (nothing changed then)
   */
  public static @Nullable String adopt(Path lake, Database database, LakeEvents.Copied copied) {
    requireNonNull(copied, "copied is null");
    if (!copied.skipped().isEmpty()) {
      return null;
    }
    try (Connection connection = database.newConnection();
        Statement statement = connection.createStatement()) {
      State state = current(lake, connection);
      if (state == null || !state.snapshot().equals(copied.fingerprint())) {
        return null;
      }
      try (ResultSet loaded =
          statement.executeQuery(
              "SELECT count(*) FROM client_timing WHERE run_id IN (SELECT run_id FROM runs"
                  + " WHERE kind = '"
                  + ClientTimingLoader.RUN_KIND
                  + "')")) {
        loaded.next();
        if (loaded.getLong(1) > 0) {
          log.info(
              "lake {}: the stored attribution {} is not adopted: the file adds client rows the"
                  + " lake does not hold",
              lake,
              state.runId());
          return null;
        }
      }
      return database
          .jdbi()
          .inTransaction(
              handle -> {
                for (String table : new String[] {LakeAttribution.TABLE, CLOCK_OFFSETS, TABLE}) {
                  LakeTableVersions.Version version = LakeTableVersions.current(lake, table);
                  handle.execute("DELETE FROM " + table);
                  String from = "FROM read_parquet(" + literal(version.path(lake).toString()) + ")";
                  handle.execute(
                      "INSERT INTO "
                          + table
                          + " BY NAME SELECT * "
                          + from
                          + (table.equals(TABLE) ? " WHERE query <> " + literal(STATE_QUERY) : ""));
                }
                handle.execute("DELETE FROM request_matches");
                Attributor.adopt(
                    handle,
                    state.runId(),
                    Instant.parse(state.started()),
                    state.command(),
                    state.params());
                log.info(
                    "lake {}: the attribution {} stored with the lake's snapshot adopted ({})",
                    lake,
                    state.runId(),
                    state.command());
                return state.runId();
              });
    } catch (SQLException e) {
      throw new IllegalStateException(
          "lake " + lake + ": cannot adopt its stored attribution: " + e.getMessage(), e);
    }
  }

  private static String literal(String text) {
    return "'" + text.replace("'", "''") + "'";
  }
}
