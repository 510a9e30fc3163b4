package dev.tokentrace.bench.lake;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.tokentrace.cli.TokentraceMain;
import dev.tokentrace.ingest.kafka.EmbeddedBroker;
import dev.tokentrace.ingest.kafka.KafkaSettings;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.DuckDbFiles;
import dev.tokentrace.store.lake.Lake;
import dev.tokentrace.store.lake.LakeCompactor;
import dev.tokentrace.store.lake.LakeSnapshot;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.jspecify.annotations.Nullable;

/**
 * The lake's throughput and its readers' cost (BENCHMARKS.md, "Parquet lake"):
 *
 * <ol>
 *   <li>{@code --events} events, the samples' expected events cycled, are written as NDJSON and
 *       produced to a broker in this JVM (3 partitions).
 *   <li>{@code tokentrace sink --lake} (batch, its own JVM, 1 GB DuckDB limit, 2 threads, no
 *       compaction) consumes them into a lake; events/s from its own "in N ms" (JVM start excluded)
 *       and over the whole process.
 *   <li>The baseline: DuckDB's own {@code COPY (FROM read_json(NDJSON)) TO 'x.parquet' (FORMAT
 *       parquet)} of the same events, same limits, in this JVM.
 *   <li>The same sink again with {@code --flush-rows} small (a live lake's many small files), then
 *       a reader's queries ({@link Lake#openReader}) before and after one compaction.
 * </ol>
 *
 * <p>{@code --readers-only true} skips steps 2 and 3 (the throughput figures) and builds only the
 * small-file lake of step 4 for the readers: the run that 10 M events affords.
 *
 * <pre>LakeBench [--events 1000000] [--dir /tmp/tt-bench-lake] [--small-flush-rows 5000]
 * [--heap 512m] [--readers-only false]</pre>
 */
public final class LakeBench {
  private static final Pattern SINK =
      Pattern.compile("events=(\\d+) rejects=(\\d+) .* in (\\d+) ms");
  private static final List<String> QUERIES =
      List.of(
          "SELECT count(*) FROM request_timing",
          "SELECT instance, count(*), quantile_cont(e2e_ms, 0.95) FROM request_timing GROUP BY 1",
          "SELECT a.instance, count(*) FROM request_arrived a JOIN request_timing t"
              + " USING (request_key) GROUP BY 1");

  public static void main(String[] args) throws Exception {
    Map<String, String> options = new LinkedHashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      options.put(args[i], args[i + 1]);
    }
    long events = Long.parseLong(options.getOrDefault("--events", "1000000"));
    Path dir = Path.of(options.getOrDefault("--dir", "/tmp/tt-bench-lake")).toAbsolutePath();
    int smallFlush = Integer.parseInt(options.getOrDefault("--small-flush-rows", "5000"));
    String heap = options.getOrDefault("--heap", "512m");
    boolean readersOnly = Boolean.parseBoolean(options.getOrDefault("--readers-only", "false"));
    deleteRecursively(dir);
    Files.createDirectories(dir);

    Path ndjson = dir.resolve("events.ndjson");
    List<String> lines = sampleEvents();
    try (EmbeddedBroker broker = EmbeddedBroker.start()) {
      KafkaSettings kafka = new KafkaSettings(broker.bootstrapServers(), 3, "lakebench", Map.of());
      try (Admin admin = Admin.create(kafka.adminProperties())) {
        kafka.topics().ensureExist(admin, kafka.partitions(), Duration.ofSeconds(30));
      }
      produce(kafka, lines, events, ndjson);
      System.err.printf("produced %d events (%d MB of NDJSON)%n", events, Files.size(ndjson) >> 20);

      @Nullable Run sink = readersOnly ? null : sink(broker, dir, "lake-a", "a", heap, List.of());
      long baselineMs = readersOnly ? 0 : baseline(ndjson, dir.resolve("baseline.parquet"));
      Run small =
          sink(
              broker,
              dir,
              "lake-b",
              "b",
              heap,
              List.of("--flush-rows", String.valueOf(smallFlush)));

      Path lake = dir.resolve("lake-b");
      int filesBefore = LakeSnapshot.scan(lake).fileCount();
      long[] before = queries(lake);
      long compactStarted = System.nanoTime();
      LakeCompactor.Result compacted =
          LakeCompactor.compact(
              lake,
              new LakeCompactor.Settings(
                  2, LakeCompactor.Settings.DEFAULT_TARGET_BYTES, Duration.ZERO),
              partition -> true,
              Instant.now().plus(Duration.ofHours(2)));
      long compactMs = (System.nanoTime() - compactStarted) / 1_000_000;
      LakeCompactor.compact( // deletes the inputs (grace 0)
          lake,
          new LakeCompactor.Settings(2, LakeCompactor.Settings.DEFAULT_TARGET_BYTES, Duration.ZERO),
          partition -> true,
          Instant.now().plus(Duration.ofHours(2)));
      int filesAfter = LakeSnapshot.scan(lake).fileCount();
      long[] after = queries(lake);

      StringBuilder out = new StringBuilder();
      out.append(
          String.format(
              Locale.ROOT,
              "events: %d (%d MB NDJSON, %d MB in lake-b)%n%n",
              events,
              Files.size(ndjson) >> 20,
              size(dir.resolve("lake-b")) >> 20));
      if (sink != null) {
        out.append("| stage | ms | events/s | vs baseline |\n| --- | ---: | ---: | ---: |\n");
        double base = events * 1000.0 / baselineMs;
        row(
            out,
            "baseline: COPY (FROM read_json) TO parquet, in-process",
            baselineMs,
            events,
            base);
        row(out, "sink --lake (flush-rows 200000), time it reports", sink.reportedMs, events, base);
        row(
            out,
            "sink --lake, whole process (JVM start, Kafka join)",
            sink.processMs,
            events,
            base);
        row(
            out,
            "sink --lake --flush-rows " + smallFlush + ", time it reports",
            small.reportedMs,
            events,
            base);
      } else {
        out.append(
            String.format(
                Locale.ROOT,
                "sink --lake --flush-rows %d (throughput steps skipped: --readers-only): %d ms,"
                    + " %.0f events/s%n",
                smallFlush,
                small.reportedMs,
                events * 1000.0 / small.reportedMs));
      }
      out.append(
          String.format(
              Locale.ROOT,
              "%nreader over lake-b (openReader + query, median of 3), %d files before, %d after"
                  + " compaction (%s, %d ms):%n%n| query | before ms | after ms |%n| --- | ---: | ---: |%n",
              filesBefore,
              filesAfter,
              compacted.describe(),
              compactMs));
      for (int i = 0; i < QUERIES.size(); i++) {
        out.append("| `")
            .append(QUERIES.get(i))
            .append("` | ")
            .append(before[i])
            .append(" | ")
            .append(after[i])
            .append(" |\n");
      }
      Files.writeString(dir.resolve("results.md"), out);
      System.out.print(out);
    }
  }

  private static void row(StringBuilder out, String stage, long ms, long events, double base) {
    double rate = events * 1000.0 / ms;
    out.append(
        String.format(
            Locale.ROOT, "| %s | %d | %.0f | %.0f%% |%n", stage, ms, rate, 100 * rate / base));
  }

  private record Run(long reportedMs, long processMs) {}

  private static Run sink(
      EmbeddedBroker broker, Path dir, String lake, String group, String heap, List<String> extra)
      throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx" + heap);
    command.addAll(List.of("-cp", System.getProperty("java.class.path")));
    command.add(TokentraceMain.class.getName());
    command.addAll(
        List.of(
            "sink",
            "--bootstrap-servers",
            broker.bootstrapServers(),
            "--topic-prefix",
            "lakebench",
            "--lake",
            dir.resolve(lake).toString(),
            "--group",
            group,
            "--compact-interval",
            "0s"));
    command.addAll(extra);
    Path err = dir.resolve(lake + ".err");
    long started = System.nanoTime();
    Process process =
        new ProcessBuilder(command)
            .redirectError(err.toFile())
            .redirectOutput(dir.resolve(lake + ".out").toFile())
            .start();
    if (!process.waitFor(30, TimeUnit.MINUTES) || process.exitValue() != 0) {
      throw new IllegalStateException("sink failed: " + Files.readString(err));
    }
    long processMs = (System.nanoTime() - started) / 1_000_000;
    Matcher matcher = SINK.matcher(Files.readString(err));
    if (!matcher.find()) {
      throw new IllegalStateException("no summary in " + Files.readString(err));
    }
    System.err.println(lake + ": " + matcher.group());
    return new Run(Long.parseLong(matcher.group(3)), processMs);
  }

  private static long baseline(Path ndjson, Path parquet) throws Exception {
    long started = System.nanoTime();
    try (Connection connection =
            DriverManager.getConnection("jdbc:duckdb:", DuckDbFiles.writer("1GB", 2));
        Statement statement = connection.createStatement()) {
      statement.execute(
          "COPY (FROM read_json('"
              + ndjson
              + "', format = 'newline_delimited')) TO '"
              + parquet
              + "' (FORMAT parquet)");
    }
    return (System.nanoTime() - started) / 1_000_000;
  }

  private static long[] queries(Path lake) throws Exception {
    long[] medians = new long[QUERIES.size()];
    for (int i = 0; i < QUERIES.size(); i++) {
      long[] times = new long[3];
      for (int run = 0; run < times.length; run++) {
        long started = System.nanoTime();
        try (Database database = Lake.openReader(lake);
            Connection connection = database.newConnection();
            Statement statement = connection.createStatement();
            ResultSet rows = statement.executeQuery(QUERIES.get(i))) {
          while (rows.next()) {
            rows.getObject(1);
          }
        }
        times[run] = (System.nanoTime() - started) / 1_000_000;
      }
      Arrays.sort(times);
      medians[i] = times[1];
    }
    return medians;
  }

  private static void produce(KafkaSettings kafka, List<String> lines, long events, Path ndjson)
      throws IOException {
    try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(kafka.producerProperties());
        BufferedWriter writer = Files.newBufferedWriter(ndjson, UTF_8)) {
      for (long i = 0; i < events; i++) {
        String line = lines.get((int) (i % lines.size()));
        writer.write(line);
        writer.write('\n');
        producer.send(
            new ProducerRecord<>(kafka.topics().events(), Long.toString(i), line.getBytes(UTF_8)));
      }
      producer.flush();
    }
  }

  /** Every sample's expected events (checked-in, written by the simulator). */
  private static List<String> sampleEvents() throws IOException {
    List<String> lines = new ArrayList<>();
    try (Stream<Path> files = Files.walk(Path.of("samples"))) {
      for (Path file :
          files
              .filter(path -> path.endsWith(Path.of("expected", "events.jsonl")))
              .sorted()
              .toList()) {
        for (String line : Files.readAllLines(file, UTF_8)) {
          if (!line.isBlank()) {
            lines.add(line);
          }
        }
      }
    }
    if (lines.isEmpty()) {
      throw new IllegalStateException(
          "no samples/**/expected/events.jsonl: run from the repo root");
    }
    return lines;
  }

  private static long size(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(Files::isRegularFile).mapToLong(path -> path.toFile().length()).sum();
    }
  }

  private static void deleteRecursively(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }
}
