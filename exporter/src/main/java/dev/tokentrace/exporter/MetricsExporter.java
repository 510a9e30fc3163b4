package dev.tokentrace.exporter;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.store.Queries;
import dev.tokentrace.store.SqlCatalog;
import dev.tokentrace.store.lake.Lake;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Unit;
import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.Lock;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The metrics of {@code tokentrace serve} (docs/live.md#metrics). Each {@link #poll()} reads the
 * store once: every included attributed request not observed before becomes one observation in each
 * histogram (its key is remembered, so a request is never observed twice however often it is read
 * again or re-attributed), and the engine gauges and pipeline health take the poll's values. A
 * failed poll changes no histogram and no gauge; it is counted and said. A poll of which some reads
 * failed (a table that cannot be read) applies the reads that succeeded and counts as failed.
 */
public final class MetricsExporter {
  private static final Logger log = LoggerFactory.getLogger(MetricsExporter.class);

  /** The components of {@code tokentrace_request_component_seconds}, in report order. */
  public static final List<String> COMPONENTS =
      List.of(
          "network",
          "client_queue",
          "server_queue",
          "prefill",
          "decode",
          // prefill/decode disaggregation only (docs/formats/pd.md#attribution)
          "kv_transfer",
          "decode_queue");

  /** The components only a prefill/decode request has (docs/formats/pd.md#attribution). */
  public static final List<String> PD_COMPONENTS = List.of("kv_transfer", "decode_queue");

  /** The components of every request: {@link #COMPONENTS} without {@link #PD_COMPONENTS}. */
  public static final List<String> REQUEST_COMPONENTS =
      COMPONENTS.stream().filter(c -> !PD_COMPONENTS.contains(c)).toList();

  /**
   * Bucket upper bounds in seconds: 0 (a small negative network time, kept by the attribution,
   * falls here), then 1 ms × 1.5^k up to 128 s, then 300 s and 600 s. Neighbouring bounds differ by
   * 50%, so histogram_quantile lands within one bucket of the exact percentile.
   */
  public static final double[] BUCKETS = buckets();

  private final StoreReader store;
  private final @Nullable ConsumerLagReader lagReader;
  private final Clock clock;
  private final ConsistentRegistry registry = new ConsistentRegistry();
  private final Histogram components;
  private final Histogram ttft;
  private final Histogram itl;
  private final Histogram e2e;
  private final Counter polls;
  private final Gauge storeUp;
  private final Gauge lastSuccess;
  private final Gauge pollSeconds;
  private final Set<String> observed = new HashSet<>();
  private volatile List<EngineRow> engines = List.of();
  private volatile List<HealthRow> health = List.of();
  private volatile List<ConsumerLagReader.PartitionLag> lags = List.of();
  private final @Nullable Gauge kafkaUp;
  private @Nullable String lastError;
  private @Nullable String lastLagError;

  public MetricsExporter(StoreReader store, Clock clock) {
    this(store, null, clock);
  }

  /**
   * @param lagReader the sinks' consumer lag (with Kafka options), or null: then {@code
   *     tokentrace_consumer_lag_records} and {@code tokentrace_exporter_kafka_up} are not exported
   */
  public MetricsExporter(StoreReader store, @Nullable ConsumerLagReader lagReader, Clock clock) {
    this.store = requireNonNull(store, "store is null");
    this.lagReader = lagReader;
    this.clock = requireNonNull(clock, "clock is null");
    components =
        Histogram.builder()
            .name("tokentrace_request_component_seconds")
            .help(
                "Attributed requests' latency by component (network, client_queue, server_queue,"
                    + " prefill, decode; kv_transfer and decode_queue for prefill/decode"
                    + " disaggregation); one observation per included request")
            .unit(Unit.SECONDS)
            .labelNames("component", "run", "server_instance")
            .classicUpperBounds(BUCKETS)
            .classicOnly()
            .register(registry);
    ttft = requestHistogram("tokentrace_request_ttft_seconds", "Client time to first token");
    itl =
        requestHistogram(
            "tokentrace_request_inter_token_seconds",
            "Client mean inter-token latency of each request (time after the first token / tokens"
                + " after the first)");
    e2e = requestHistogram("tokentrace_request_e2e_seconds", "Client end-to-end latency");
    engineGauge(
        "tokentrace_engine_running_requests", "Requests running at the newest engine snapshot", 0);
    engineGauge(
        "tokentrace_engine_waiting_requests", "Requests waiting at the newest engine snapshot", 1);
    engineGauge(
        "tokentrace_engine_kv_cache_usage_ratio",
        "KV-cache use (0 to 1) at the newest engine snapshot",
        2);
    engineGauge("tokentrace_engine_batch_size", "Batch size at the newest batch step", 3);
    engineGauge(
        "tokentrace_engine_snapshot_timestamp_seconds",
        "Log time of the newest engine snapshot (engine_stats or batch_step)",
        4);
    GaugeWithCallback.builder()
        .name("tokentrace_store_newest_event_timestamp_seconds")
        .help(
            "Log time of the newest event row of each instance; time() minus it is the row"
                + " freshness")
        .labelNames("server_instance", "engine")
        .callback(
            callback -> {
              for (HealthRow row : health) {
                if (row.kind.equals("event") && row.newestEpochSeconds != null) {
                  callback.call(row.newestEpochSeconds, row.label, row.engine);
                }
              }
            })
        .register(registry);
    GaugeWithCallback.builder()
        .name("tokentrace_store_event_rows")
        .help("Event rows in the store per instance")
        .labelNames("server_instance", "engine")
        .callback(
            callback -> {
              for (HealthRow row : health) {
                if (row.kind.equals("event")) {
                  callback.call(row.rows, row.label, row.engine);
                }
              }
            })
        .register(registry);
    GaugeWithCallback.builder()
        .name("tokentrace_store_client_rows")
        .help("Client timing rows in the store per run")
        .labelNames("run")
        .callback(
            callback -> {
              for (HealthRow row : health) {
                if (row.kind.equals("client")) {
                  callback.call(row.rows, row.label);
                }
              }
            })
        .register(registry);
    CounterWithCallback.builder()
        .name("tokentrace_rejected_lines_total")
        .help("Log lines the parsers rejected, as stored in the rejects table")
        .labelNames("engine")
        .callback(
            callback -> {
              for (HealthRow row : health) {
                if (row.kind.equals("reject")) {
                  callback.call(row.rows, row.engine);
                }
              }
            })
        .register(registry);
    if (lagReader != null) {
      GaugeWithCallback.builder()
          .name("tokentrace_consumer_lag_records")
          .help(
              "Records of each topic partition the sinks of the group have not committed yet"
                  + " (Kafka's last stable offset minus the lake manifest's next offset)")
          .labelNames("group", "topic", "partition")
          .callback(
              callback -> {
                for (ConsumerLagReader.PartitionLag lag : lags) {
                  callback.call(
                      lag.lag(), lag.group(), lag.topic(), Integer.toString(lag.partition()));
                }
              })
          .register(registry);
      kafkaUp =
          Gauge.builder()
              .name("tokentrace_exporter_kafka_up")
              .help(
                  "1 when the last read of the consumer lag from Kafka succeeded, else 0 (then no"
                      + " lag is exported)")
              .register(registry);
    } else {
      kafkaUp = null;
    }
    polls =
        Counter.builder()
            .name("tokentrace_exporter_polls_total")
            .help("Reads of the store by the exporter, by result")
            .labelNames("result")
            .register(registry);
    polls.initLabelValues("ok");
    polls.initLabelValues("error");
    storeUp =
        Gauge.builder()
            .name("tokentrace_exporter_store_up")
            .help("1 when the last read of the store succeeded, else 0")
            .register(registry);
    lastSuccess =
        Gauge.builder()
            .name("tokentrace_exporter_last_success_timestamp_seconds")
            .help("When the exporter last read the store successfully")
            .unit(Unit.SECONDS)
            .register(registry);
    pollSeconds =
        Gauge.builder()
            .name("tokentrace_exporter_poll_duration_seconds")
            .help("How long the last successful read of the store took")
            .unit(Unit.SECONDS)
            .register(registry);
  }

  private Histogram requestHistogram(String name, String help) {
    return Histogram.builder()
        .name(name)
        .help(help + "; one observation per included attributed request")
        .unit(Unit.SECONDS)
        .labelNames("run", "server_instance")
        .classicUpperBounds(BUCKETS)
        .classicOnly()
        .register(registry);
  }

  private void engineGauge(String name, String help, int column) {
    GaugeWithCallback.builder()
        .name(name)
        .help(help)
        .labelNames("server_instance", "engine")
        .callback(
            callback -> {
              for (EngineRow row : engines) {
                Double value = row.values[column];
                if (value != null) {
                  callback.call(value, row.instance, row.engine);
                }
              }
            })
        .register(registry);
  }

  /** The registry to expose (through {@link #serve} or another exporter). */
  public PrometheusRegistry registry() {
    return registry;
  }

  /** What one poll did. */
  public record PollResult(
      boolean ok, int newRequests, int knownRequests, @Nullable String error) {}

  /**
   * Reads the store once and applies what is new. Never throws for a store that cannot be read: the
   * result says why, {@code tokentrace_exporter_store_up} goes to 0 and the last values stay.
   */
  public synchronized PollResult poll() {
    pollLag();
    long started = System.nanoTime();
    List<Request> fresh = new ArrayList<>();
    List<EngineRow> newEngines = new ArrayList<>();
    List<HealthRow> newHealth = new ArrayList<>();
    List<String> failures = new ArrayList<>();
    boolean enginesRead = false;
    boolean healthRead = false;
    try (StoreReader.Session session = store.open()) {
      Connection connection = session.connection();
      // Each read in a transaction of its own, so that one table that cannot be read (a truncated
      // lake file: docs/live.md#a-table-that-cannot-be-read) fails only the reads of that table.
      // The stores are read-only snapshots (a DuckDB file no writer holds, a lake's views over a
      // fixed set of files), so the reads still see one state.
      if (!read(connection, failures, () -> readRequests(connection, fresh))) {
        fresh.clear();
      }
      enginesRead = read(connection, failures, () -> readEngines(connection, newEngines));
      healthRead = read(connection, failures, () -> readHealth(connection, newHealth));
    } catch (SQLException | RuntimeException e) {
      failures.add(String.valueOf(e.getMessage()));
    }
    // Only a table that cannot be read at all (its view raises Lake.UNREADABLE) lets the other
    // reads through; any other failure (a file merged away under the poll) fails the whole poll,
    // so that a scrape never shows two polls mixed (docs/live.md#one-observation-per-request).
    boolean partial = failures.stream().allMatch(f -> f.contains(Lake.UNREADABLE));
    if (!partial || failures.size() == 3 || (!enginesRead && !healthRead && fresh.isEmpty())) {
      return failed(String.join("; ", failures));
    }
    for (Request request : fresh) {
      observed.add(request.key());
    }
    Lock lock = registry.writeLock();
    lock.lock();
    try {
      for (Request request : fresh) {
        for (int i = 0; i < COMPONENTS.size(); i++) {
          if (request.components[i] != null) {
            components
                .labelValues(COMPONENTS.get(i), request.run, request.instance)
                .observe(request.components[i]);
          }
        }
        observe(ttft, request, request.ttft);
        observe(itl, request, request.itl);
        observe(e2e, request, request.e2e);
      }
      if (enginesRead) {
        engines = List.copyOf(newEngines);
      }
      if (healthRead) {
        health = List.copyOf(newHealth);
      }
      if (failures.isEmpty()) {
        polls.labelValues("ok").inc();
        storeUp.set(1);
        lastSuccess.set(clock.millis() / 1000.0);
        pollSeconds.set((System.nanoTime() - started) / 1e9);
      } else {
        polls.labelValues("error").inc();
        storeUp.set(0);
      }
    } finally {
      lock.unlock();
    }
    if (!failures.isEmpty()) {
      String message = store.describe() + ": " + String.join("; ", failures);
      if (!message.equals(lastError)) {
        log.warn("serve: cannot read part of {} (the rest was read; retrying)", message);
        lastError = message;
      }
      return new PollResult(false, fresh.size(), observed.size(), message);
    }
    if (lastError != null) {
      log.info("serve: reading {} again", store.describe());
      lastError = null;
    }
    return new PollResult(true, fresh.size(), observed.size(), null);
  }

  /** A poll that read nothing: counted and said; every metric keeps its last value. */
  private PollResult failed(String reason) {
    polls.labelValues("error").inc();
    storeUp.set(0);
    String message = store.describe() + ": " + reason;
    if (!message.equals(lastError)) {
      log.warn("serve: cannot read {} (keeping the last values; retrying)", message);
      lastError = message;
    }
    return new PollResult(false, 0, observed.size(), message);
  }

  /** One read of the store. */
  private interface Read {
    void run() throws SQLException;
  }

  /** Runs {@code read} in a transaction of its own; false (and the reason added) when it failed. */
  private static boolean read(Connection connection, List<String> failures, Read read) {
    try {
      connection.setAutoCommit(false);
      try {
        read.run();
        return true;
      } finally {
        connection.rollback();
      }
    } catch (SQLException | RuntimeException e) {
      failures.add(String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
      return false;
    }
  }

  /**
   * Reads the consumer lag, if there is a reader, and applies it whole under the scrape lock; a
   * failed read exports no lag (never the last one as if current) and sets kafka_up to 0.
   */
  private void pollLag() {
    if (lagReader == null || kafkaUp == null) {
      return;
    }
    List<ConsumerLagReader.PartitionLag> read;
    String error = null;
    try {
      read = List.copyOf(lagReader.read());
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      read = List.of();
      error = lagReader.describe() + ": " + e.getMessage();
    }
    Lock lock = registry.writeLock();
    lock.lock();
    try {
      lags = read;
      kafkaUp.set(error == null ? 1 : 0);
    } finally {
      lock.unlock();
    }
    if (error != null && !error.equals(lastLagError)) {
      log.warn("serve: cannot read the consumer lag from {} (no lag exported; retrying)", error);
    } else if (error == null && lastLagError != null) {
      log.info("serve: reading the consumer lag from {} again", lagReader.describe());
    }
    lastLagError = error;
  }

  private static void observe(Histogram histogram, Request request, @Nullable Double value) {
    if (value != null) {
      histogram.labelValues(request.run, request.instance).observe(value);
    }
  }

  private void readRequests(Connection connection, List<Request> fresh) throws SQLException {
    // the watermark: a key enters `observed` only with its request in `fresh`, applied below and
    // only when the whole read succeeded
    Set<String> seenNow = new HashSet<>();
    try (Statement statement = connection.createStatement();
        ResultSet rows =
            statement.executeQuery(SqlCatalog.get(Queries.EXPORTER_ATTRIBUTED_REQUESTS))) {
      while (rows.next()) {
        String run = rows.getString("run_id");
        String key =
            run
                + '\u0000'
                + rows.getString("client_source_path")
                + '\u0000'
                + rows.getLong("client_source_line");
        if (observed.contains(key) || !seenNow.add(key)) {
          continue;
        }
        Double[] parts = new Double[COMPONENTS.size()];
        parts[0] = value(rows, "network_s");
        parts[1] = value(rows, "client_queue_s");
        parts[2] = value(rows, "server_queue_s");
        parts[3] = value(rows, "prefill_s");
        parts[4] = value(rows, "decode_s");
        parts[5] = value(rows, "kv_transfer_s");
        parts[6] = value(rows, "decode_queue_s");
        fresh.add(
            new Request(
                key,
                run,
                rows.getString("instance"),
                parts,
                value(rows, "ttft_s"),
                value(rows, "itl_s"),
                value(rows, "e2e_s")));
      }
    }
  }

  private static void readEngines(Connection connection, List<EngineRow> out) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery(SqlCatalog.get(Queries.EXPORTER_ENGINE_STATE))) {
      while (rows.next()) {
        Double statsTs = epochSeconds(rows.getTimestamp("stats_ts"));
        Double batchTs = epochSeconds(rows.getTimestamp("batch_ts"));
        Double newest =
            statsTs == null ? batchTs : batchTs == null ? statsTs : Math.max(statsTs, batchTs);
        out.add(
            new EngineRow(
                String.valueOf(rows.getString("instance")),
                String.valueOf(rows.getString("engine")),
                new Double[] {
                  value(rows, "running"),
                  value(rows, "waiting"),
                  value(rows, "kv_cache_usage_ratio"),
                  value(rows, "batch_size"),
                  newest
                }));
      }
    }
  }

  private static void readHealth(Connection connection, List<HealthRow> out) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery(SqlCatalog.get(Queries.EXPORTER_PIPELINE_HEALTH))) {
      while (rows.next()) {
        out.add(
            new HealthRow(
                rows.getString("kind"),
                String.valueOf(rows.getString("instance")),
                String.valueOf(rows.getString("engine")),
                rows.getLong("rows"),
                epochSeconds(rows.getTimestamp("newest_ts"))));
      }
    }
  }

  private static @Nullable Double value(ResultSet rows, String column) throws SQLException {
    double value = rows.getDouble(column);
    return rows.wasNull() || Double.isNaN(value) ? null : value;
  }

  private static @Nullable Double epochSeconds(@Nullable Timestamp ts) {
    // event timestamps are UTC wall time (docs/design.md#events)
    return ts == null
        ? null
        : ts.toLocalDateTime().toEpochSecond(java.time.ZoneOffset.UTC) + ts.getNanos() / 1e9;
  }

  /**
   * Serves {@code /metrics} (and the library's own index page) on the address until the server is
   * closed, within the limits of {@link HttpLimits} (docs/live.md#limits-of-serve).
   */
  public HTTPServer serve(String bind, int port) throws IOException {
    HttpLimits.applyDeadlines();
    return HTTPServer.builder()
        .hostname(bind)
        .port(port)
        .registry(registry)
        .executorService(HttpLimits.executor())
        .buildAndStart();
  }

  private static double[] buckets() {
    List<Double> bounds = new ArrayList<>();
    bounds.add(0.0);
    double bound = 0.001;
    for (int i = 0; i < 30; i++) {
      bounds.add(bound);
      bound *= 1.5;
    }
    bounds.add(300.0);
    bounds.add(600.0);
    return bounds.stream().mapToDouble(Double::doubleValue).toArray();
  }

  private record Request(
      String key,
      String run,
      String instance,
      @Nullable Double[] components,
      @Nullable Double ttft,
      @Nullable Double itl,
      @Nullable Double e2e) {}

  private record EngineRow(String instance, String engine, @Nullable Double[] values) {}

  private record HealthRow(
      String kind, String label, String engine, long rows, @Nullable Double newestEpochSeconds) {}
}
