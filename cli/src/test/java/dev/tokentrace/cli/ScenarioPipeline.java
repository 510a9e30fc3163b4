package dev.tokentrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.correlate.attribution.AttributionSettings;
import dev.tokentrace.correlate.attribution.MatchSettings;
import dev.tokentrace.correlate.client.ClientLoadResult;
import dev.tokentrace.correlate.client.ClientLoadSettings;
import dev.tokentrace.correlate.client.ClientTimingLoader;
import dev.tokentrace.ingest.Ingest;
import dev.tokentrace.ingest.IngestSettings;
import dev.tokentrace.ingest.IngestSummary;
import dev.tokentrace.ingest.SourceFile;
import dev.tokentrace.ingest.kafka.KafkaSettings;
import dev.tokentrace.ingest.sink.LoadedFiles;
import dev.tokentrace.ingest.sink.SinkSettings;
import dev.tokentrace.report.ReportFormat;
import dev.tokentrace.report.ReportService;
import dev.tokentrace.report.model.ReportData;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Handle;
import org.jspecify.annotations.Nullable;

/**
 * Runs one sample scenario alone through the product's own pipeline, as {@code tokentrace demo}
 * does for all of them together: its server files through the same parsers to a real Kafka broker
 * (topics of its own, {@code <prefix>.events}), the DuckDB sink into a database of its own, its
 * client file loaded, attribution and report computed by the product's SQL (with {@code --match
 * heuristic} for the scenarios whose engine ignores client IDs, {@link #rules}). Only the report's
 * clock is fixed, so the report is reproducible.
 */
final class ScenarioPipeline {
  static final String COMMAND = "AttributionAccuracyIT";
  static final String HEURISTIC = "heuristic";

  /** One DuckDB thread: sums and quantiles in the same order on every run. */
  private static final int DUCKDB_THREADS = 1;

  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);

  private final String bootstrapServers;
  private final Path workDir;

  ScenarioPipeline(String bootstrapServers, Path workDir) {
    this.bootstrapServers = bootstrapServers;
    this.workDir = workDir;
  }

  ScenarioRun run(SampleScenarios.Scenario scenario) {
    DatabaseSettings database =
        DatabaseSettings.from(workDir.resolve(scenario.id() + ".duckdb"), null, DUCKDB_THREADS);
    IngestSummary ingested = ingest(scenario, database);
    assertThat(ingested.ship().failedFiles()).as(scenario.id() + " unreadable files").isEmpty();
    try (Database analysis = Database.open(database)) {
      ClientLoadResult clients =
          new ClientTimingLoader(analysis, CLOCK)
              .load(
                  ClientLoadSettings.from(
                      List.of(scenario.clientFile()),
                      scenario.clientFormat(),
                      scenario.id(),
                      null,
                      COMMAND,
                      null));
      assertThat(clients.messages()).as(scenario.id() + " client rows rejected").isEmpty();
      if (scenario.gatewayLog() != null && !scenario.gatewayLog().equals(scenario.clientFile())) {
        // the gateway in front of the server: a second vantage point (its own run)
        ClientLoadResult gateway =
            new ClientTimingLoader(analysis, CLOCK)
                .load(
                    ClientLoadSettings.from(
                        List.of(scenario.gatewayLog()),
                        "nginx",
                        scenario.id() + "-gateway",
                        null,
                        COMMAND,
                        null));
        assertThat(gateway.messages()).as(scenario.id() + " gateway rows rejected").isEmpty();
      }
      ReportData report = new ReportService(analysis, CLOCK).build(rules(scenario), COMMAND);
      return analysis
          .jdbi()
          .withHandle(
              handle ->
                  new ScenarioRun(
                      scenario,
                      ingested.rejected(),
                      attributed(handle),
                      timings(handle),
                      arrivals(handle),
                      clocks(handle),
                      report,
                      markdown(report)));
    }
  }

  /**
   * The attribution rules a scenario needs: {@code --match heuristic} where the engine ignores
   * client IDs (accuracy class heuristic: TensorRT-LLM), the defaults otherwise.
   */
  static AttributionSettings rules(SampleScenarios.Scenario scenario) {
    return HEURISTIC.equals(scenario.properties().getProperty("accuracy"))
        ? AttributionSettings.defaults().withMatch(MatchSettings.from(HEURISTIC, null, null, null))
        : AttributionSettings.defaults();
  }

  /**
   * The scenario whose server files go through the embedded broker; every other one is loaded
   * in-process, the batch path without {@code --bootstrap-servers}
   * (docs/design.md#embedded-broker), whose rows equal the broker path's ({@code
   * InProcessIngestIT}, EXCEPT ALL both ways). One scenario through Kafka keeps the accuracy proof
   * covering the broker path; the rest skip its per-run consumer-group join and transactions, which
   * were most of this suite's time.
   */
  static final String VIA_BROKER = "vllm-v0.16-production";

  private IngestSummary ingest(SampleScenarios.Scenario scenario, DatabaseSettings database) {
    ParseOptions parse = new ParseOptions();
    parse.instance = scenario.id();
    parse.engine = scenario.engine().id();
    parse.year = Integer.valueOf(scenario.properties().getProperty("year").strip());
    parse.zone = scenario.properties().getProperty("zone", "UTC");
    KafkaSettings kafka =
        new KafkaSettings(
            bootstrapServers,
            KafkaSettings.DEFAULT_PARTITIONS,
            "accuracy." + scenario.id(),
            Map.of());
    SinkSettings sink =
        new SinkSettings(
            workDir.resolve(scenario.id() + ".duckdb"),
            database.memoryLimit(),
            database.threads(),
            SinkSettings.DEFAULT_POLL_TIMEOUT,
            SinkSettings.DEFAULT_STALL_TIMEOUT);
    List<SourceFile> files = SourceFiles.resolve(scenario.serverFiles(), parse);
    if (!VIA_BROKER.equals(scenario.id())) {
      return Ingest.loadInProcess(
          new LoadedFiles(sink.db()).plan(files, false),
          sink,
          IngestSettings.of(kafka).maxLineBytes(),
          removed -> {});
    }
    try (Ingest ingest = Ingest.open(IngestSettings.of(kafka))) {
      return ingest.run(files, sink);
    }
  }

  private static String markdown(ReportData report) {
    StringBuilder out = new StringBuilder();
    try {
      ReportService.render(report, ReportFormat.MARKDOWN, out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  private static List<ScenarioRun.Attributed> attributed(Handle handle) {
    return handle
        .createQuery("SELECT * FROM request_attribution ORDER BY request_key")
        .map(
            (row, context) ->
                new ScenarioRun.Attributed(
                    row.getString("request_key"),
                    row.getString("join_status"),
                    row.getString("confidence"),
                    row.getString("match_method"),
                    row.getString("server_request_id"),
                    bool(row, "retried"),
                    row.getBoolean("included"),
                    row.getString("exclusion"),
                    row.getString("dominant"),
                    ScenarioRun.Attributed.components(
                        ms(row, "client_queue_ms"),
                        ms(row, "network_ms"),
                        ms(row, "queue_ms"),
                        ms(row, "prefill_ms"),
                        ms(row, "decode_ms")),
                    row.getString("vantage"),
                    ms(row, "network_client_gateway_ms"),
                    ms(row, "network_gateway_engine_ms")))
        .list();
  }

  private static List<ScenarioRun.ServerTiming> timings(Handle handle) {
    return handle
        .createQuery("SELECT * FROM request_timing ORDER BY request_id")
        .map(
            (row, context) ->
                new ScenarioRun.ServerTiming(
                    row.getString("request_id"),
                    ms(row, "queue_ms"),
                    ms(row, "prefill_ms"),
                    ms(row, "decode_ms"),
                    ms(row, "e2e_ms")))
        .list();
  }

  private static List<ScenarioRun.Arrival> arrivals(Handle handle) {
    return handle
        .createQuery("SELECT request_key, ts FROM request_arrived ORDER BY request_key")
        .map(
            (row, context) ->
                new ScenarioRun.Arrival(row.getString("request_key"), instant(row, "ts")))
        .list();
  }

  private static List<ScenarioRun.Clock> clocks(Handle handle) {
    return handle
        .createQuery("SELECT * FROM clock_offsets ORDER BY run_id, instance, client_clock")
        .map(
            (row, context) ->
                new ScenarioRun.Clock(
                    row.getString("run_id"),
                    row.getString("instance"),
                    row.getString("method"),
                    row.getString("flag"),
                    row.getInt("pairs"),
                    row.getDouble("spread_ms"),
                    ms(row, "fit_ms"),
                    ms(row, "runner_up_fit_ms")))
        .list();
  }

  private static @Nullable Boolean bool(ResultSet row, String column) throws SQLException {
    boolean value = row.getBoolean(column);
    return row.wasNull() ? null : value;
  }

  private static @Nullable Double ms(ResultSet row, String column) throws SQLException {
    double value = row.getDouble(column);
    return row.wasNull() ? null : value;
  }

  /** A DuckDB TIMESTAMP (UTC by the schema's convention) as an instant. */
  private static @Nullable Instant instant(ResultSet row, String column) throws SQLException {
    Timestamp value = row.getTimestamp(column);
    return value == null ? null : value.toLocalDateTime().toInstant(ZoneOffset.UTC);
  }
}
