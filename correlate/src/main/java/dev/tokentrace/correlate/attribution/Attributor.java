package dev.tokentrace.correlate.attribution;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.Queries;
import dev.tokentrace.store.Runs;
import dev.tokentrace.store.SqlCatalog;
import dev.tokentrace.store.rows.ClockOffset;
import dev.tokentrace.store.rows.DataQuality;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Clock;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.mapper.reflect.ConstructorMapper;
import org.jdbi.v3.core.statement.Update;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the attribution, in one transaction: estimates the client-server clock offsets from requests
 * paired by ID ({@code sql/attribution/clock_offsets.sql} into {@code clock_offsets}), with {@code
 * --match heuristic} aligns steady server clocks with client runs by their time series ({@link
 * SteadyClockOffsets}, also into {@code clock_offsets}) and pairs the requests no ID joins ({@link
 * HeuristicMatcher} into {@code request_matches}), replaces {@code request_attribution} with the
 * join computed by {@code sql/attribution/per_request.sql}, and records the run and its settings in
 * {@code runs}. Java orchestrates; every formula is in the SQL. Thread-safe.
 */
public final class Attributor {
  /**
   * The tables {@link #run} writes: a reader that recomputes keeps them in memory ({@code
   * Database.openReadOnly(settings, TABLES_WRITTEN)}) so the file stays as it is.
   */
  public static final List<String> TABLES_WRITTEN =
      List.of(
          "attribution_state",
          "request_attribution",
          "request_matches",
          "clock_offsets",
          "runs",
          "attribution_results");

  /** {@code runs.kind} of an attribution run. */
  public static final String RUN_KIND = "correlate";

  private static final Logger log = LoggerFactory.getLogger(Attributor.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> CLOCK_PARAMETERS =
      List.of(
          "outlier_mads", "min_window_ms", "zone_tolerance_ms", "max_offset_ms", "max_spread_ms");

  private static final String SQL_HASH = sqlHash();

  /** The input tables incremental attribution narrows to the keys it attributes again. */
  private static final List<String> KEYED_INPUTS =
      List.of("client_timing", "request_timing", "request_arrived", "request_aborted");

  private static final String NO_STATE = " (no incremental state yet)";

  private final Database database;
  private final Clock clock;
  private final boolean incremental;
  private final @Nullable AfterRecompute afterRecompute;
  private volatile String lastRound = "";
  private volatile String lastSteps = "";

  /**
   * Work that belongs to the transaction of an attribution that recomputed every request, done
   * after its rows and its run are written: {@code correlate} stores the report's costly results
   * with it (docs/design.md#stored-report-results).
   */
  @FunctionalInterface
  public interface AfterRecompute {
    /** Runs on the attribution's handle; {@code runId} is the run just recorded. */
    void accept(Handle handle, String runId);
  }

  public Attributor(Database database, Clock clock) {
    this(database, clock, false, null);
  }

  private Attributor(
      Database database,
      Clock clock,
      boolean incremental,
      @Nullable AfterRecompute afterRecompute) {
    this.database = requireNonNull(database, "database is null");
    this.clock = requireNonNull(clock, "clock is null");
    this.incremental = incremental;
    this.afterRecompute = afterRecompute;
  }

  /**
   * An attributor that, whenever it recomputes every request, also runs {@code after} in the same
   * transaction (not after an incremental round: what it stores is then simply absent for the new
   * run, and its readers compute it).
   */
  public Attributor afterRecompute(AfterRecompute after) {
    return new Attributor(database, clock, incremental, requireNonNull(after, "after is null"));
  }

  /**
   * An attributor whose {@link #run} attributes again only the request keys whose input rows
   * changed since its previous run on this database, and keeps per-key digests of the inputs for
   * the next (docs/design.md#incremental-attribution): what {@code correlate --follow} uses. The
   * result equals {@link #run} of a batch attributor on the same data; the first run, a run after a
   * batch one, and runs with {@code --match heuristic} or {@code --warmup-first} recompute all.
   */
  public Attributor incremental() {
    return new Attributor(database, clock, true, afterRecompute);
  }

  /**
   * What the last {@link #run} did, for the command's output: "attributed every request" or how
   * many keys an incremental run attributed again and why; empty before the first run.
   */
  public String lastRound() {
    return lastRound;
  }

  /**
   * Milliseconds of the last {@link #run}'s steps, for a round's timing line ({@code correlate
   * --follow}): e.g. {@code digests 12, offsets 30, per_request 200, realign 40, quality 25}.
   */
  public String lastSteps() {
    return lastSteps;
  }

  /**
   * Recomputes the attribution of every client request in the database.
   *
   * @param command the command line, recorded in {@code runs}
   * @throws IllegalStateException naming the query when DuckDB fails
   */
  public AttributionResult run(AttributionSettings settings, String command) {
    requireNonNull(settings, "settings is null");
    requireNonNull(command, "command is null");
    Instant started = clock.instant();
    StepTimes steps = new StepTimes();
    String runId;
    try {
      runId =
          database
              .jdbi()
              .inTransaction(
                  handle -> {
                    String why = incremental ? whyNotIncremental(handle, settings) : "";
                    if (why == null) {
                      return update(handle, settings, command, started, steps);
                    }
                    String id = recompute(handle, settings, command, started, steps);
                    if (afterRecompute != null) {
                      afterRecompute.accept(handle, id);
                      steps.lap("stored results");
                    }
                    lastRound = "attributed every request" + why;
                    if (incremental && why.equals(NO_STATE)) {
                      keepDigests(handle, id, true); // the next round can be incremental
                      steps.lap("digests");
                    }
                    return id;
                  });
    } catch (SQLException | RuntimeException e) {
      throw new IllegalStateException(
          "query " + Queries.PER_REQUEST + " failed on " + database.name() + ": " + e.getMessage(),
          e);
    }
    steps.lap("commit");
    AttributionResult result = new AttributionResult(runId, dataQuality());
    storeQuality(runId, result.dataQuality());
    steps.lap("quality");
    lastSteps = steps.describe();
    // what each step costs (bench/correlate.sh shows it with --child-opts
    // -Dorg.slf4j.simpleLogger.log.dev.tokentrace.correlate.attribution=info)
    log.info("correlate: steps, wall ms: {}; process CPU ms: {}", lastSteps, steps.describeCpu());
    log.info("correlate: {}", result.dataQuality().summary());
    return result;
  }

  private static String recompute(
      Handle handle, AttributionSettings settings, String command, Instant started, StepTimes steps)
      throws SQLException {
    String inputs = inputs(handle);
    handle.execute("DELETE FROM attribution_state");
    handle.execute("DELETE FROM request_attribution");
    handle.execute("DELETE FROM request_matches");
    handle.execute("DELETE FROM clock_offsets");
    steps.lap("inputs");
    boolean proxied = proxyKeys(handle);
    keyTable(handle);
    steps.lap("keys");
    estimateOffsets(handle);
    steps.lap("offsets");
    if (settings.match().heuristic()) {
      int links = SteadyClockOffsets.estimate(handle, settings).size();
      log.info("correlate: {} run(s) aligned with a steady server clock by time series", links);
      long pairs = HeuristicMatcher.match(handle, settings);
      log.info("correlate: {} request(s) paired by --match heuristic", pairs);
    }
    attributeRequests(handle, settings);
    handle.execute("DROP TABLE IF EXISTS temp.attribution_keys");
    handle.execute("DROP TABLE IF EXISTS temp.pd_halves");
    if (proxied) {
      handle.execute("DROP TABLE IF EXISTS temp.client_timing");
    }
    steps.lap("per_request");
    return record(handle, settings, command, started, inputs);
  }

  /**
   * The per-key counts both {@code clock_offsets.sql} and {@code per_request.sql} read, as the
   * temporary table {@code attribution_keys}, from the input tables as DuckDB resolves their names
   * now (docs/design.md#attribution-key-table).
   */
  private static void keyTable(Handle handle) {
    // the P/D pairs first: the key table leaves their decode halves out
    // (docs/formats/pd.md#attribution)
    handle.execute(SqlCatalog.get(Queries.PD_HALVES));
    handle.execute(SqlCatalog.get(Queries.REQUEST_KEYS));
  }

  /**
   * When a proxy access log (or an SGLang record keyed by its bootstrap room) is stored, shadows
   * {@code client_timing} for this transaction with the keys it maps client IDs to
   * (docs/formats/pd.md#proxy-access-log, docs/formats/pd.md#sglang-request-ids); whether it did.
   */
  private static boolean proxyKeys(Handle handle) {
    if (!hasProxyRows(handle)) {
      return false;
    }
    handle.execute(SqlCatalog.get(Queries.PROXY_KEYS));
    return true;
  }

  private static boolean hasProxyRows(Handle handle) {
    return handle.createQuery(SqlCatalog.get(Queries.PROXY_KEYS_NEEDED)).mapTo(Boolean.class).one();
  }

  private static void estimateOffsets(Handle handle) {
    Update offsets = handle.createUpdate(SqlCatalog.get(Queries.CLOCK_OFFSETS));
    for (String parameter : CLOCK_PARAMETERS) {
      offsets.bindNull(parameter, Types.DOUBLE); // the SQL's documented defaults
    }
    offsets.execute();
  }

  private static void attributeRequests(Handle handle, AttributionSettings settings) {
    handle
        .createUpdate(SqlCatalog.get(Queries.PER_REQUEST))
        .bind("negative_tolerance_ms", settings.negativeToleranceMs())
        .bind("negative_tolerance_pct", settings.negativeTolerancePct())
        .bind("warmup_first_n", settings.warmupFirstN())
        .bind("window_ms", settings.match().windowMs())
        .execute();
  }

  private static String record(
      Handle handle, AttributionSettings settings, String command, Instant started, String inputs)
      throws SQLException {
    Connection connection = handle.getConnection();
    String runId = Runs.newId(connection, RUN_KIND, started);
    String params = params(settings);
    Runs.insert(connection, new Runs.Run(runId, RUN_KIND, started, command, params));
    handle.execute("DELETE FROM attribution_state");
    handle.execute("DELETE FROM attribution_results"); // of an older run: never read again
    handle
        .createUpdate("INSERT INTO attribution_state VALUES (:run_id, :params, :inputs, NULL)")
        .bind("run_id", runId)
        .bind("params", params)
        .bind("inputs", inputs)
        .execute();
    return runId;
  }

  /**
   * Null when the stored attribution can be brought up to date key by key: it was computed with
   * these rules and formulas, with digests of its inputs. Else why not, as the tail of the round's
   * message (a rule that ranks or pairs across keys recomputes every request).
   */
  private static @Nullable String whyNotIncremental(Handle handle, AttributionSettings settings)
      throws SQLException {
    if (settings.match().heuristic()) {
      return " (--match heuristic pairs requests across keys)";
    }
    if (settings.warmupFirstN() > 0) {
      return " (--warmup-first ranks every request of a run)";
    }
    if (handle.createQuery("SELECT count(*) FROM kv_transfer").mapTo(Long.class).one() > 0) {
      // an interval row moves the estimate of every request of its decode server
      // (docs/formats/pd.md#estimate): key digests cannot tell which requests changed
      return " (P/D transfer estimates are per decode server)";
    }
    if (hasProxyRows(handle)) {
      // the mapping is one shadow of every client row (docs/formats/pd.md#proxy-access-log)
      return " (a proxy access log or SGLang's bootstrap rooms map client IDs)";
    }
    long kept =
        handle
            .createQuery(
                "SELECT count(*) FROM attribution_state s JOIN attribution_digest_run d"
                    + " USING (run_id) WHERE s.params = :params AND s.inputs LIKE :sql")
            .bind("params", params(settings))
            .bind("sql", "sql=" + SQL_HASH + " %")
            .mapTo(Long.class)
            .one();
    return kept == 1 ? null : NO_STATE;
  }

  /**
   * One round of incremental attribution (docs/design.md#incremental-attribution): digests of the
   * inputs per key, the keys whose digest changed, the clock offsets recomputed (they depend on
   * every pair of a run) and the runs whose offsets changed; the changed keys (and, in those runs,
   * the keys with several attempts) are attributed again by per_request.sql itself, run on
   * temporary tables that hold only their rows; the other rows of those runs get the new offset.
   */
  private String update(
      Handle handle, AttributionSettings settings, String command, Instant started, StepTimes steps)
      throws SQLException {
    String inputs = inputs(handle);
    script(handle, Queries.INCREMENTAL_SCRATCH);
    steps.lap("inputs");
    handle.execute("INSERT INTO key_digests_now " + SqlCatalog.get(Queries.KEY_DIGESTS));
    handle.execute("INSERT INTO changed_keys " + SqlCatalog.get(Queries.CHANGED_KEYS));
    steps.lap("digests");
    handle.execute("INSERT INTO clock_offsets_before FROM clock_offsets");
    handle.execute("DELETE FROM clock_offsets");
    keyTable(handle);
    estimateOffsets(handle);
    handle.execute("INSERT INTO offset_runs " + SqlCatalog.get(Queries.OFFSET_RUNS));
    handle.execute("INSERT INTO redo_keys " + SqlCatalog.get(Queries.REDO_KEYS));
    steps.lap("offsets");
    long changed = count(handle, "changed_keys");
    long redo = count(handle, "redo_keys");
    long runs = count(handle, "offset_runs");
    handle.execute(
        "DELETE FROM request_attribution WHERE request_key IN (SELECT request_key FROM redo_keys)");
    if (redo > 0) {
      for (String table : KEYED_INPUTS) {
        // shadows the table for per_request.sql (DuckDB looks in temp first): only these keys
        handle.execute(
            "CREATE OR REPLACE TEMP TABLE "
                + table
                + " AS FROM main."
                + table
                + " WHERE request_key IN (SELECT request_key FROM redo_keys)");
      }
      try {
        keyTable(handle); // again, on the shadowed tables: their rowids
        attributeRequests(handle, settings);
      } finally {
        for (String table : KEYED_INPUTS) {
          handle.execute("DROP TABLE IF EXISTS temp." + table);
        }
      }
    }
    handle.execute("DROP TABLE IF EXISTS temp.attribution_keys");
    handle.execute("DROP TABLE IF EXISTS temp.pd_halves");
    steps.lap("per_request");
    int realigned = runs == 0 ? 0 : handle.execute(SqlCatalog.get(Queries.REALIGN));
    steps.lap("realign");
    String runId = record(handle, settings, command, started, inputs);
    keepDigests(handle, runId, false);
    steps.lap("bookkeeping");
    for (String table :
        List.of("key_digests_now", "changed_keys", "clock_offsets_before", "offset_runs")) {
      handle.execute("DROP TABLE IF EXISTS temp." + table);
    }
    handle.execute("DROP TABLE IF EXISTS temp.redo_keys");
    lastRound =
        String.format(
            Locale.ROOT,
            "attributed %d request key(s) again (%d with new or changed rows%s)",
            redo,
            changed,
            runs == 0
                ? ""
                : String.format(
                    Locale.ROOT,
                    ", %d run(s) with new clock offsets: %d row(s) realigned",
                    runs,
                    realigned));
    return runId;
  }

  /** Runs a SQL file of several statements. */
  private static void script(Handle handle, String name) throws SQLException {
    try (Statement statement = handle.getConnection().createStatement()) {
      statement.execute(SqlCatalog.get(name));
    }
  }

  private static long count(Handle handle, String table) {
    return handle.createQuery("SELECT count(*) FROM " + table).mapTo(Long.class).one();
  }

  /**
   * Stores the digests of the inputs as of the attribution {@code runId}: all of them after a
   * recompute, else those of the keys that changed (key_digests_now and changed_keys exist then).
   */
  private static void keepDigests(Handle handle, String runId, boolean all) {
    if (all) {
      handle.execute("DELETE FROM attribution_key_digests");
      handle.execute("INSERT INTO attribution_key_digests " + SqlCatalog.get(Queries.KEY_DIGESTS));
    } else {
      handle.execute(
          "DELETE FROM attribution_key_digests"
              + " WHERE request_key IN (SELECT request_key FROM changed_keys)");
      handle.execute(
          "INSERT INTO attribution_key_digests SELECT * FROM key_digests_now"
              + " WHERE request_key IN (SELECT request_key FROM changed_keys)");
    }
    handle.execute("DELETE FROM attribution_digest_run");
    handle
        .createUpdate("INSERT INTO attribution_digest_run VALUES (:run_id)")
        .bind("run_id", runId)
        .execute();
  }

  /**
   * The run whose attribution is in {@code request_attribution} when it was computed with these
   * settings from the inputs the database holds now, so it can be reused as it is; else null.
   */
  public @Nullable String current(AttributionSettings settings) {
    requireNonNull(settings, "settings is null");
    return database
        .jdbi()
        .withHandle(
            handle ->
                handle
                    .createQuery(
                        "SELECT run_id FROM attribution_state WHERE params = :params"
                            + " AND inputs = :inputs")
                    .bind("params", params(settings))
                    .bind("inputs", inputs(handle))
                    .mapTo(String.class)
                    .findFirst()
                    .orElse(null));
  }

  /**
   * Makes the attribution in {@code request_attribution} (with the results in {@code
   * attribution_results}) this database's current one: computed elsewhere, with the rules {@code
   * params}, from exactly the inputs the database holds now. A lake reader does this with the
   * version {@code spark-correlate} wrote from the snapshot it just copied
   * (docs/scale.md#stored-results), so a report reuses it as one {@link #run} stored. Records the
   * run {@code runId} (kind {@value #RUN_KIND}) and the inputs' fingerprint as of now.
   */
  public static void adopt(
      Handle handle, String runId, Instant started, String command, String params)
      throws SQLException {
    requireNonNull(runId, "runId is null");
    Connection connection = handle.getConnection();
    if (!Runs.exists(connection, runId)) {
      Runs.insert(connection, new Runs.Run(runId, RUN_KIND, started, command, params));
    }
    handle.execute("DELETE FROM attribution_state");
    handle
        .createUpdate("INSERT INTO attribution_state VALUES (:run_id, :params, :inputs, NULL)")
        .bind("run_id", runId)
        .bind("params", params)
        .bind("inputs", inputs(handle))
        .execute();
  }

  /**
   * The rules of the attribution stored in the database (by the last {@code correlate} or {@code
   * report}), or null when none is stored: what a {@code report} without rule options reuses.
   */
  public @Nullable AttributionSettings storedSettings() {
    String params =
        database
            .jdbi()
            .withHandle(
                handle ->
                    handle
                        .createQuery("SELECT params FROM attribution_state")
                        .mapTo(String.class)
                        .findFirst()
                        .orElse(null));
    if (params == null) {
      return null;
    }
    try {
      JsonNode stored = JSON.readTree(params);
      return AttributionSettings.from(
              number(stored, "negative_tolerance_ms"),
              number(stored, "negative_tolerance_pct"),
              stored.hasNonNull("warmup_first_n") ? stored.get("warmup_first_n").asInt() : null)
          .withMatch(
              MatchSettings.from(
                  stored.path("match").asText(null),
                  number(stored, "match_window_ms"),
                  integer(stored, "match_output_token_tolerance"),
                  integer(stored, "match_prompt_token_tolerance")));
    } catch (JsonProcessingException | IllegalArgumentException e) {
      log.warn("stored attribution rules unreadable ({}): not reused", e.getMessage());
      return null;
    }
  }

  /**
   * Why the stored attribution cannot be reused with {@code settings}, for the message that says a
   * report recomputes it.
   */
  public String whyNotCurrent(AttributionSettings settings) {
    AttributionSettings stored = storedSettings();
    if (stored == null) {
      return "no attribution is stored (run `correlate` to choose its rules)";
    }
    if (!params(stored).equals(params(settings))) {
      return "its rules differ from the stored ones (stored "
          + params(stored)
          + ", now "
          + params(settings)
          + ")";
    }
    return "the loaded data (or tokentrace's formulas) changed since it was computed";
  }

  /** The rules as options, for messages: {@code --match heuristic --match-window-ms 5000 ...}. */
  public static String describe(AttributionSettings settings) {
    MatchSettings match = settings.match();
    StringBuilder text =
        new StringBuilder("--match ")
            .append(match.mode().id())
            .append(" --match-window-ms ")
            .append(match.windowMs());
    if (match.heuristic()) {
      text.append(" --match-output-tokens ")
          .append(match.outputTokenTolerance())
          .append(" --match-prompt-tokens ")
          .append(match.promptTokenTolerance());
    }
    return text.append(" --negative-tolerance-ms ")
        .append(settings.negativeToleranceMs())
        .append(" --negative-tolerance-pct ")
        .append(settings.negativeTolerancePct())
        .append(" --warmup-first ")
        .append(settings.warmupFirstN())
        .toString();
  }

  private static @Nullable Double number(JsonNode node, String field) {
    return node.hasNonNull(field) ? node.get(field).asDouble() : null;
  }

  private static @Nullable Integer integer(JsonNode node, String field) {
    return node.hasNonNull(field) ? node.get(field).asInt() : null;
  }

  /**
   * What the attribution was computed from: the input tables' fingerprint and a hash of the SQL
   * that computes it, so an upgraded tokentrace never reuses an attribution by older formulas.
   */
  private static String inputs(Handle handle) {
    return "sql="
        + SQL_HASH
        + " "
        + handle.createQuery(SqlCatalog.get(Queries.INPUTS)).mapTo(String.class).one();
  }

  private static String sqlHash() {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      for (String name :
          List.of(
              Queries.PD_HALVES,
              Queries.PROXY_KEYS,
              Queries.REQUEST_KEYS,
              Queries.CLOCK_OFFSETS,
              Queries.STEADY_CLOCK_SERIES,
              Queries.HEURISTIC_CANDIDATES,
              Queries.PER_REQUEST,
              Queries.KEY_DIGESTS,
              Queries.CHANGED_KEYS,
              Queries.OFFSET_RUNS,
              Queries.REDO_KEYS,
              Queries.REALIGN)) {
        digest.update(SqlCatalog.get(name).getBytes(StandardCharsets.UTF_8));
      }
      return HexFormat.of().formatHex(digest.digest(), 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("no SHA-256 in this JVM", e);
    }
  }

  /**
   * The data-quality counts stored with the attribution of {@code runId} (one query less for a
   * report that reuses it: minutes at 10 M requests), or null when not stored.
   */
  public @Nullable DataQuality storedQuality(String runId) {
    requireNonNull(runId, "runId is null");
    String json =
        database
            .jdbi()
            .withHandle(
                handle ->
                    handle
                        .createQuery("SELECT quality FROM attribution_state WHERE run_id = :run_id")
                        .bind("run_id", runId)
                        .mapTo(String.class)
                        .findFirst()
                        .orElse(null));
    if (json == null) {
      return null;
    }
    try {
      return JSON.readValue(json, DataQuality.class);
    } catch (JsonProcessingException e) {
      log.warn("correlate: stored data-quality counts of {} unreadable, recomputed", runId);
      return null;
    }
  }

  private void storeQuality(String runId, DataQuality quality) {
    String json;
    try {
      json = JSON.writeValueAsString(quality);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write data-quality counts as JSON", e);
    }
    database
        .jdbi()
        .useHandle(
            handle ->
                handle
                    .createUpdate(
                        "UPDATE attribution_state SET quality = :quality WHERE run_id = :run_id")
                    .bind("quality", json)
                    .bind("run_id", runId)
                    .execute());
  }

  /** Counts about the current attribution (join rate, duplicates, suspects, rejects). */
  public DataQuality dataQuality() {
    return database
        .jdbi()
        .withHandle(
            handle ->
                handle
                    .createQuery(SqlCatalog.get(Queries.DATA_QUALITY))
                    .map(ConstructorMapper.of(DataQuality.class))
                    .one());
  }

  /**
   * A line saying which rows of the current attribution were not attributed from a streaming
   * client's view (docs/formats/gateways.md#three-vantage-points), or null when all were.
   */
  public @Nullable String vantageSummary() {
    Map<String, Object> counts =
        database
            .jdbi()
            .withHandle(
                handle ->
                    handle.createQuery(SqlCatalog.get(Queries.VANTAGE_COUNTS)).mapToMap().one());
    long split = ((Number) counts.get("client_gateway_rows")).longValue();
    long gateway = ((Number) counts.get("gateway_rows")).longValue();
    long e2e = ((Number) counts.get("e2e_view_rows")).longValue();
    if (split == 0 && gateway == 0 && e2e == 0) {
      return null;
    }
    return String.format(
        Locale.ROOT,
        "vantage: %d request(s) with network split at the gateway (client+gateway), %d attributed"
            + " from the gateway's view (no client row: vantage gateway), %d by the end-to-end view"
            + " only (no first-token time: timing_view e2e)",
        split,
        gateway,
        e2e);
  }

  /** The clock offset estimates of the current attribution, with a hint per flag. */
  public List<ClockOffset> clockOffsets() {
    return database
        .jdbi()
        .withHandle(
            handle ->
                handle
                    .createQuery(SqlCatalog.get(Queries.CLOCK_OFFSET_LIST))
                    .map(ConstructorMapper.of(ClockOffset.class))
                    .list());
  }

  /** Every attributed request, in client file order; meant for tests and small runs. */
  public List<RequestAttribution> requests() {
    return database
        .jdbi()
        .withHandle(
            handle ->
                handle
                    .createQuery(
                        "SELECT * FROM request_attribution ORDER BY run_id, client_source_path, client_source_line")
                    .map(ConstructorMapper.of(RequestAttribution.class))
                    .list());
  }

  /** The rules as stored with an attribution ({@code attribution_state.params}, {@code runs}). */
  public static String params(AttributionSettings settings) {
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("negative_tolerance_ms", settings.negativeToleranceMs());
    params.put("negative_tolerance_pct", settings.negativeTolerancePct());
    params.put("warmup_first_n", settings.warmupFirstN());
    params.put("match", settings.match().mode().id());
    params.put("match_window_ms", settings.match().windowMs()); // the retry rule's window too
    if (settings.match().heuristic()) {
      params.put("match_output_token_tolerance", settings.match().outputTokenTolerance());
      params.put("match_prompt_token_tolerance", settings.match().promptTokenTolerance());
    }
    try {
      return JSON.writeValueAsString(params);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write attribution settings as JSON", e);
    }
  }

  /** Milliseconds per step of one run, in order: laps of a stopwatch ({@link #lastSteps}). */
  private static final class StepTimes {
    private static final com.sun.management.OperatingSystemMXBean OS =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private final Map<String, Long> nanos = new LinkedHashMap<>();
    private final Map<String, Long> cpuNanos = new LinkedHashMap<>();
    private long last = System.nanoTime();
    private long lastCpu = OS.getProcessCpuTime();

    void lap(String step) {
      long now = System.nanoTime();
      long cpu = OS.getProcessCpuTime();
      nanos.merge(step, now - last, Long::sum);
      cpuNanos.merge(step, cpu - lastCpu, Long::sum);
      last = now;
      lastCpu = cpu;
    }

    String describe() {
      return describe(nanos);
    }

    /** The process's CPU time per step (every thread, DuckDB's included). */
    String describeCpu() {
      return describe(cpuNanos);
    }

    private static String describe(Map<String, Long> nanos) {
      StringBuilder text = new StringBuilder();
      nanos.forEach(
          (step, time) ->
              text.append(text.length() == 0 ? "" : ", ")
                  .append(step)
                  .append(' ')
                  .append(time / 1_000_000));
      return text.toString();
    }
  }
}
