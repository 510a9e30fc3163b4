package dev.tokentrace.cli;

import dev.tokentrace.exporter.DuckDbFileStore;
import dev.tokentrace.exporter.LakeStore;
import dev.tokentrace.exporter.MetricsExporter;
import dev.tokentrace.exporter.StoreReader;
import dev.tokentrace.ingest.kafka.KafkaSettings;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tokentrace serve}: a Prometheus exporter over the store (docs/live.md#metrics). Reads the
 * store every {@code --poll-interval} and serves {@code /metrics} until SIGTERM or Ctrl-C (in
 * process: until the calling thread is interrupted).
 */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    showDefaultValues = true,
    sortOptions = false,
    description = {
      "Expose Prometheus metrics read from the store: per run and server instance, histograms of"
          + " the attributed components (tokentrace_request_component_seconds{component=network|"
          + "client_queue|server_queue|prefill|decode}), TTFT, inter-token and end-to-end seconds"
          + " (one observation per included attributed request, never two); gauges of the newest"
          + " engine snapshot (running, waiting, batch size, KV-cache use); pipeline health (rows,"
          + " newest row time, rejects, the exporter's own reads; with --lake and"
          + " --bootstrap-servers the sinks' consumer lag). The store is opened read-only"
          + " for each poll; while a writer holds a DuckDB file the poll fails, is counted"
          + " (tokentrace_exporter_store_up 0) and the last values stay."
    })
final class ServeCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin DatabaseOptions database = new DatabaseOptions();

  @Option(
      names = "--lake",
      paramLabel = "DIR",
      description =
          "read the event tables and rejects from this lake (live, while sinks write), and the"
              + " request_attribution that correlate --lake writes there; with --db, the"
              + " attribution and client timings come from that file instead (attached read-only"
              + " for each poll)")
  @Nullable Path lake;

  @Option(
      names = "--bootstrap-servers",
      paramLabel = "HOST:PORT[,...]",
      description =
          "with --lake: also export the sinks' consumer lag per topic partition"
              + " (tokentrace_consumer_lag_records{group,topic,partition}: Kafka's last stable"
              + " offset minus the lake manifest's next offset) and tokentrace_exporter_kafka_up;"
              + " without Kafka options neither metric exists")
  @Nullable String bootstrapServers;

  @Option(
      names = "--kafka-config",
      paramLabel = "FILE",
      description = "with --lake: " + KafkaSettings.KAFKA_CONFIG_DOC)
  @Nullable Path kafkaConfig;

  @Option(
      names = "--port",
      paramLabel = "PORT",
      description = "port of /metrics (9464 is the usual exporter port; 0 picks a free one)",
      defaultValue = "9464")
  int port = 9464;

  @Option(
      names = "--bind",
      paramLabel = "ADDRESS",
      description =
          "address to listen on: loopback by default; 0.0.0.0 to let a Prometheus on another"
              + " host scrape",
      defaultValue = "127.0.0.1")
  String bind = "127.0.0.1";

  @Option(
      names = "--poll-interval",
      paramLabel = "DURATION",
      description = "how often the store is read (new requests, snapshots, health)",
      converter = DurationConverter.class,
      defaultValue = "5s")
  Duration pollInterval = Duration.ofSeconds(5);

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (pollInterval.isZero() || pollInterval.isNegative()) {
      throw new UsageException("--poll-interval must be positive");
    }
    StoreReader store;
    if (lake != null) {
      boolean dbGiven = spec.commandLine().getParseResult().hasMatchedOption("--db");
      Path attribution = dbGiven ? database.db : null;
      if (attribution == null) {
        err.println(
            "serve: no --db given: events and request_attribution from the lake (the version"
                + " correlate --lake writes there; none yet means no histograms), no client rows");
        err.flush();
      }
      store = new LakeStore(lake, attribution, database.settings());
    } else {
      store = new DuckDbFileStore(database.settings());
    }
    LakeConsumerLag lag = null;
    if (bootstrapServers != null || kafkaConfig != null) {
      KafkaSettings kafka = KafkaSettings.from(bootstrapServers, null, null, kafkaConfig);
      if (lake == null || kafka.bootstrapServers() == null) {
        closeStore(store);
        throw new UsageException(
            "consumer lag needs --lake DIR (the sinks' progress is the lake's manifests) and"
                + " --bootstrap-servers (or bootstrap.servers in --kafka-config)");
      }
      lag = new LakeConsumerLag(lake, kafka);
    }
    try {
      return serve(store, lag, out, err);
    } finally {
      if (lag != null) {
        lag.close();
      }
    }
  }

  private static void closeStore(StoreReader store) {
    if (store instanceof LakeStore lakeStore) {
      lakeStore.close();
    }
  }

  private int serve(
      StoreReader store, @Nullable LakeConsumerLag lag, PrintWriter out, PrintWriter err) {
    MetricsExporter exporter = new MetricsExporter(store, lag, Clock.systemUTC());
    MetricsExporter.PollResult first = exporter.poll();
    if (!first.ok()) {
      err.println(
          "serve: " + first.error() + " (serving anyway; retrying every " + pollInterval + ")");
      err.flush();
    }
    HTTPServer server;
    try {
      server = exporter.serve(bind, port);
    } catch (IOException e) {
      if (store instanceof LakeStore lakeStore) {
        lakeStore.close();
      }
      err.println("serve: cannot listen on " + bind + ":" + port + ": " + e.getMessage());
      err.flush();
      return ExitCodes.INFRASTRUCTURE;
    }
    CountDownLatch stop = new CountDownLatch(1);
    try (ShutdownHook hook = ShutdownHook.install("serve", err, stop::countDown)) {
      out.printf(
          "serve: http://%s:%d/metrics from %s%s, read every %s; %d attributed requests observed;"
              + " Ctrl-C to stop%n",
          bind,
          server.getPort(),
          store.describe(),
          lag == null ? "" : ", consumer lag from " + lag.describe(),
          pollInterval,
          first.knownRequests());
      out.flush();
      try {
        while (!stop.await(pollInterval.toMillis(), TimeUnit.MILLISECONDS)) {
          MetricsExporter.PollResult result = exporter.poll();
          if (result.ok() && result.newRequests() > 0) {
            out.printf(
                "serve: %d new attributed requests observed (%d in all)%n",
                result.newRequests(), result.knownRequests());
            out.flush();
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt(); // in-process callers stop the exporter this way
      } finally {
        server.close();
        if (store instanceof LakeStore lakeStore) {
          lakeStore.close();
        }
      }
      out.println("serve: stopped");
      out.flush();
      hook.finished(ExitCodes.OK);
      return ExitCodes.OK;
    }
  }
}
