package dev.tokentrace.bench;

import dev.tokentrace.cli.TokentraceMain;
import dev.tokentrace.ingest.kafka.EmbeddedBroker;
import dev.tokentrace.ingest.kafka.KafkaSettings;
import dev.tokentrace.ingest.sink.KafkaToDuckDb;
import dev.tokentrace.ingest.sink.SinkSettings;
import dev.tokentrace.measure.Quantiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;

/**
 * End-to-end freshness of live tailing and the shipper's cost, on this machine:
 *
 * <ul>
 *   <li>A writer thread appends vLLM request lines round-robin to {@code --files} files at {@code
 *       --rates} lines/s in total, each line with its own serial, and notes when each write
 *       returned.
 *   <li>{@code tokentrace ship --follow} runs as its own process (as deployed), with the launcher's
 *       default JVM options, and ships to a broker in this JVM.
 *   <li>The DuckDB sink runs in this JVM too, because DuckDB lets one process write a file: a
 *       second connection of the sink's database ({@link KafkaToDuckDb#readerConnection()}) reads
 *       the rows of each batch the sink commits, checking for commits every {@value #READ_POLL_MS}
 *       ms. A line's freshness is the time from its write to the query that first sees its row:
 *       what a user querying the sink's database would see, within a millisecond or two of the
 *       commit.
 *   <li>The shipper's CPU time and resident memory are read from {@code /proc} over the measured
 *       window, which starts after a warm-up once the pipeline has caught up (rows seen within a
 *       second's worth of lines of those written). Rate 0 is the baseline: the cost of following
 *       idle files.
 * </ul>
 *
 * <p>With {@code --reader exporter} (implies {@code --store lake}; {@code
 * bench/exporter-freshness.sh}), freshness is line written → visible in {@code tokentrace serve
 * --lake}'s {@code /metrics} ({@link ExporterRowReader}), with serve polling the lake every {@code
 * --exporter-poll}.
 *
 * <p>Usage: {@code FreshnessBench [--rates 0,1000,20000] [--files 4] [--warmup 10] [--seconds 30]
 * [--shipper-opts -Xmx1g] [--out DIR] [--store duckdb|lake] [--reader lake|exporter]
 * [--exporter-poll 1s]}. Prints a Markdown table.
 */
public final class FreshnessBench {
  static final int READ_POLL_MS = 1;
  static final int MAX_STEADY_WAIT_SECONDS = 120;

  private final Options options;
  private final EmbeddedBroker broker;

  private FreshnessBench(Options options, EmbeddedBroker broker) {
    this.options = options;
    this.broker = broker;
  }

  public static void main(String[] args) throws Exception {
    Options options = Options.parse(args);
    List<Result> results = new ArrayList<>();
    try (EmbeddedBroker broker = EmbeddedBroker.start()) {
      FreshnessBench bench = new FreshnessBench(options, broker);
      for (int rate : options.rates()) {
        Result result = bench.run(rate);
        System.err.println(result.row());
        results.add(result);
      }
    }
    StringBuilder table = new StringBuilder(Result.HEADER);
    results.forEach(result -> table.append(result.row()).append('\n'));
    Files.writeString(options.out().resolve("results.md"), table);
    System.out.print(table);
  }

  private Result run(int rate) throws Exception {
    String prefix = "bench" + rate;
    Path dir = options.out().resolve("rate-" + rate);
    deleteRecursively(dir);
    Files.createDirectories(dir);
    List<Path> files = new ArrayList<>();
    for (int file = 0; file < options.files(); file++) {
      files.add(Files.writeString(dir.resolve("server-" + file + ".log"), ""));
    }
    KafkaSettings kafka = new KafkaSettings(broker.bootstrapServers(), 3, prefix, Map.of());
    try (Admin admin = Admin.create(kafka.adminProperties())) {
      kafka.topics().ensureExist(admin, kafka.partitions(), Duration.ofSeconds(30));
    }
    int seconds = options.warmup() + MAX_STEADY_WAIT_SECONDS + options.seconds() + 10;
    int capacity = Math.max(1, rate * seconds);
    Freshness freshness = new Freshness(capacity);
    if (options.store().equals("lake")) {
      return runLake(rate, prefix, dir, files, freshness);
    }
    KafkaToDuckDb sink =
        KafkaToDuckDb.open(
            SinkSettings.defaults(dir.resolve("bench.duckdb")), kafka, Clock.systemUTC());
    Thread sinking = new Thread(sink::runUntilStopped, "bench-sink");
    sinking.start();
    Process shipper = startShipper(dir, prefix, files);
    try (RowReader reader =
        new RowReader(sink.readerConnection(), () -> sink.progress().batches(), freshness)) {
      reader.start();
      awaitConnected(dir);
      return measure(
          rate,
          shipper,
          files,
          freshness,
          reader,
          () ->
              "sink lag "
                  + sink.progress().lag()
                  + " records, "
                  + sink.progress().batches()
                  + " batches");
    } finally {
      shipper.destroy();
      shipper.waitFor(60, TimeUnit.SECONDS);
      sink.stop();
      sinking.join();
      sink.close();
    }
  }

  private Result measure(
      int rate,
      Process shipper,
      List<Path> files,
      Freshness freshness,
      SeenRows reader,
      java.util.function.Supplier<String> sinkStatus)
      throws Exception {
    ProcessSampler sampler = new ProcessSampler(shipper.pid());
    ProcessSampler self = new ProcessSampler(ProcessHandle.current().pid());
    try (LineWriter writer = new LineWriter(files, rate, freshness)) {
      writer.start();
      Thread.sleep(TimeUnit.SECONDS.toMillis(options.warmup()));
      awaitSteadyState(rate, writer, reader);
      long firstSerial = writer.written() + 1;
      double cpuStart = sampler.cpuSeconds();
      double selfStart = self.cpuSeconds();
      long started = System.nanoTime();
      long rssSum = 0;
      long rssMax = 0;
      for (int second = 0; second < options.seconds(); second++) {
        Thread.sleep(1000);
        long rss = sampler.rssKib();
        rssSum += rss;
        rssMax = Math.max(rssMax, rss);
        System.err.printf(
            Locale.ROOT,
            "  %ds: written %d, seen %d, %s%n",
            second + 1,
            writer.written(),
            reader.seen(),
            sinkStatus.get());
      }
      double cpu = sampler.cpuSeconds() - cpuStart;
      double selfCpu = self.cpuSeconds() - selfStart;
      double wall = (System.nanoTime() - started) / 1e9;
      long lastSerial = writer.written();
      writer.close();
      reader.awaitSeen(writer.written(), Duration.ofSeconds(60));
      double[] window = freshness.window(firstSerial, lastSerial);
      return new Result(
          rate,
          options.files(),
          lastSerial - firstSerial + 1,
          (lastSerial - firstSerial + 1) / wall,
          window,
          100 * cpu / wall,
          100 * selfCpu / wall,
          rssSum / options.seconds() / 1024,
          rssMax / 1024,
          sampler.peakRssKib() / 1024,
          loadAverage());
    }
  }

  /**
   * The lake variant ({@code --store lake}): {@code tokentrace sink --follow --lake} runs as its
   * own process with its defaults (1 s flush, compaction on), and this process reads the lake like
   * any other reader would ({@link LakeRowReader}): freshness is line written to row returned by a
   * query in another process than the sink's.
   */
  private Result runLake(int rate, String prefix, Path dir, List<Path> files, Freshness freshness)
      throws Exception {
    Path lake = dir.resolve("lake");
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(Arrays.asList(options.shipperOptions().split(" ")));
    command.addAll(List.of("-cp", System.getProperty("java.class.path")));
    command.add(TokentraceMain.class.getName());
    command.addAll(
        List.of(
            "sink",
            "--follow",
            "--bootstrap-servers",
            broker.bootstrapServers(),
            "--topic-prefix",
            prefix,
            "--lake",
            lake.toString(),
            "--group",
            prefix,
            "--status-interval",
            "5s"));
    Process sink =
        new ProcessBuilder(command)
            .redirectError(dir.resolve("sink.err").toFile())
            .redirectOutput(dir.resolve("sink.out").toFile())
            .start();
    Process shipper = startShipper(dir, prefix, files);
    try (SeenRows reader =
        options.reader().equals("exporter")
            ? new ExporterRowReader(
                lake,
                dir,
                files.size(),
                options.exporterPoll(),
                options.shipperOptions(),
                freshness)
            : new LakeRowReader(lake, freshness)) {
      reader.start();
      awaitConnected(dir);
      return measure(
          rate,
          shipper,
          files,
          freshness,
          reader,
          () ->
              options.reader().equals("exporter")
                  ? "lake sink and serve --poll-interval "
                      + options.exporterPoll()
                      + " (own processes)"
                  : "lake sink (own process)");
    } finally {
      shipper.destroy();
      shipper.waitFor(60, TimeUnit.SECONDS);
      sink.destroy();
      sink.waitFor(60, TimeUnit.SECONDS);
    }
  }

  /**
   * Waits (at most {@value #MAX_STEADY_WAIT_SECONDS} s) until the rows seen trail the lines written
   * by no more than a second's worth: a cold JVM (JIT) on a busy machine falls behind at first, and
   * a window that starts with that backlog measures the start, not the steady state.
   */
  private static void awaitSteadyState(int rate, LineWriter writer, SeenRows reader)
      throws InterruptedException {
    long started = System.nanoTime();
    long deadline = started + TimeUnit.SECONDS.toNanos(MAX_STEADY_WAIT_SECONDS);
    while (writer.written() - reader.seen() > rate && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
    System.err.printf(
        Locale.ROOT,
        "  steady after %d ms more warm-up (%d lines behind)%n",
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started),
        writer.written() - reader.seen());
  }

  /** The 1- and 5-minute load averages now: the machine is shared, so they say how busy it was. */
  private static String loadAverage() throws IOException {
    String[] fields = Files.readString(Path.of("/proc/loadavg")).split(" ");
    return fields[0] + " / " + fields[1];
  }

  private static void deleteRecursively(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (var paths = Files.walk(dir)) {
      for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }

  private Process startShipper(Path dir, String prefix, List<Path> files) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(Arrays.asList(options.shipperOptions().split(" ")));
    command.addAll(List.of("-cp", System.getProperty("java.class.path")));
    command.add(TokentraceMain.class.getName());
    command.addAll(
        List.of(
            "ship",
            "--follow",
            "--bootstrap-servers",
            broker.bootstrapServers(),
            "--topic-prefix",
            prefix,
            "--shipper-id",
            prefix,
            "--engine",
            "vllm",
            "--year",
            "2026",
            "--status-interval",
            "5s"));
    if (options.reader().equals("exporter")) {
      command.addAll(List.of("--instance-from", "file")); // server-F: the exporter's label
    }
    files.forEach(file -> command.add(file.toString()));
    return new ProcessBuilder(command)
        .redirectError(dir.resolve("ship.err").toFile())
        .redirectOutput(dir.resolve("ship.out").toFile())
        .start();
  }

  private static void awaitConnected(Path dir) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    Path err = dir.resolve("ship.err");
    while (!Files.exists(err) || !Files.readString(err).contains("connected in")) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the shipper did not connect: " + Files.readString(err));
      }
      Thread.sleep(100);
    }
  }

  /** One rate's figures. */
  record Result(
      int rate,
      int files,
      long lines,
      double measuredRate,
      double[] freshnessMs,
      double cpuPercent,
      double benchCpuPercent,
      long rssMeanMib,
      long rssMaxMib,
      long rssPeakMib,
      String load) {
    static final String HEADER =
        "| target lines/s | files | lines measured | lines/s | freshness P50 ms | P95 ms | P99 ms"
            + " | max ms | shipper CPU % of a core | shipper RSS mean / max MiB (peak) | broker +"
            + " sink + writer CPU % | machine load 1/5 min |\n"
            + "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n";

    String row() {
      boolean idle = freshnessMs.length == 0;
      return String.format(
          Locale.ROOT,
          "| %d | %d | %d | %.0f | %s | %s | %s | %s | %.1f | %d / %d (%d) | %.0f | %s |",
          rate,
          files,
          idle ? 0 : lines,
          idle ? 0.0 : measuredRate,
          percentile(0.50),
          percentile(0.95),
          percentile(0.99),
          percentile(1.0),
          cpuPercent,
          rssMeanMib,
          rssMaxMib,
          rssPeakMib,
          benchCpuPercent,
          load);
    }

    private String percentile(double quantile) {
      if (freshnessMs.length == 0) {
        return "-";
      }
      return String.format(Locale.ROOT, "%.0f", Quantiles.ofSorted(freshnessMs, quantile));
    }
  }
}
