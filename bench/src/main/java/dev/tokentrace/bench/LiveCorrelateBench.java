package dev.tokentrace.bench;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.EventTables;
import dev.tokentrace.ingest.tail.SourceParser;
import dev.tokentrace.ingest.tail.TailOutput;
import dev.tokentrace.parse.LineSplitter;
import dev.tokentrace.parse.ParseSettings;
import dev.tokentrace.parse.Parsers;
import dev.tokentrace.parse.Rejection;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import dev.tokentrace.store.lake.LakeMarker;
import dev.tokentrace.store.lake.LakePartition;
import dev.tokentrace.store.lake.LakeWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * CPU of {@code correlate --follow --lake} per attributed request against batch {@code correlate
 * --lake} on the same data, each in its own JVM (BENCHMARKS.md, "Live attribution"). A simulated
 * vLLM run's events are committed to a lake in {@code --commits} steps while the follower runs with
 * {@code --interval}; each step waits for the follower's round. The JVM's own start-up CPU ({@code
 * tokentrace --version}) is measured too and subtracted.
 *
 * <pre>
 * LiveCorrelateBench [--requests 5000] [--commits 10] [--interval 200ms] [--out bench/target/live]
 * </pre>
 */
public final class LiveCorrelateBench {
  private LiveCorrelateBench() {}

  public static void main(String[] args) throws Exception {
    int requests = 5000;
    int commits = 10;
    String interval = "200ms";
    Path out = Path.of("bench/target/live");
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--requests" -> requests = Integer.parseInt(args[i + 1]);
        case "--commits" -> commits = Integer.parseInt(args[i + 1]);
        case "--interval" -> interval = args[i + 1];
        case "--out" -> out = Path.of(args[i + 1]);
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    deleteTree(out);
    Files.createDirectories(out);
    Path sim = out.resolve("sim");
    cli(
        out,
        "simulate",
        "--engine",
        "vllm",
        "--format-version",
        "0.16",
        "--seed",
        "7",
        "--start",
        "2026-03-02T09:00:00.250Z",
        "--requests",
        Integer.toString(requests),
        "--concurrency",
        "32",
        "--out",
        sim.toString());
    List<EngineEvent> events = parse(sim);
    Path follow = out.resolve("follow.duckdb");
    Path batch = out.resolve("batch.duckdb");
    for (Path db : List.of(follow, batch)) {
      cli(
          out,
          "clients",
          "--db",
          db.toString(),
          "--format",
          "csv",
          "--run-id",
          "live",
          sim.resolve("client_timings.csv").toString());
    }
    Path lake = out.resolve("lake");
    double jvm = child(out, "version", List.of("--version")).cpu;

    LakePartition partition = new LakePartition("tokentrace.events", 0);
    Child follower;
    try (LakeWriter writer =
        LakeWriter.open(
            lake, LakeMarker.of("tokentrace", "bench"), "512MB", 1, Clock.systemUTC())) {
      writer.recover(partition, "bench-topic");
      writer.startAt(partition, 0);
      follower = null;
      long offset = 0;
      for (int c = 1; c <= commits; c++) {
        int from = (int) ((long) events.size() * (c - 1) / commits);
        int to = (int) ((long) events.size() * c / commits);
        for (EngineEvent event : events.subList(from, to)) {
          writer.append(partition, EventTables.of(event), event);
          offset++;
        }
        writer.advance(partition, offset);
        writer.flush();
        if (follower == null) { // started on the first commit: its round n is commit n's
          follower =
              Child.start(
                  out,
                  "follow",
                  List.of(
                      "correlate",
                      "--follow",
                      "--lake",
                      lake.toString(),
                      "--db",
                      follow.toString(),
                      "--interval",
                      interval));
        }
        follower.await("correlate: round " + c + " (");
      }
    }
    double followCpu = follower.stop();
    Measured batchRun =
        child(
            out,
            "batch",
            List.of("correlate", "--lake", lake.toString(), "--db", batch.toString()));
    long attributed = count(follow);
    System.out.printf(
        Locale.ROOT,
        "requests %d, events %d, lake commits %d (a follow round each), interval %s%n",
        requests,
        events.size(),
        commits,
        interval);
    System.out.printf(Locale.ROOT, "JVM start-up alone: %.2f s CPU%n", jvm);
    System.out.printf(
        Locale.ROOT,
        "| run | CPU s | CPU s minus JVM start-up | attributed | CPU ms per attributed request |%n"
            + "|---|---:|---:|---:|---:|%n");
    row("correlate --follow --lake", followCpu, jvm, attributed);
    row("correlate --lake (batch)", batchRun.cpu, jvm, attributed);
    System.out.printf(
        Locale.ROOT,
        "ratio follow / batch (minus start-up): %.2f%n",
        (followCpu - jvm) / (batchRun.cpu - jvm));
  }

  private static void row(String name, double cpu, double jvm, long attributed) {
    System.out.printf(
        Locale.ROOT,
        "| %s | %.2f | %.2f | %d | %.3f |%n",
        name,
        cpu,
        cpu - jvm,
        attributed,
        (cpu - jvm) * 1000 / attributed);
  }

  private static long count(Path db) {
    try (Database database = Database.openReadOnly(DatabaseSettings.file(db))) {
      return database
          .jdbi()
          .withHandle(
              h ->
                  h.createQuery("SELECT count(*) FROM request_attribution WHERE included")
                      .mapTo(Long.class)
                      .one());
    }
  }

  private static List<EngineEvent> parse(Path sim) throws IOException {
    ParseSettings settings = new ParseSettings("bench", ZoneOffset.UTC, 2026);
    List<EngineEvent> events = new ArrayList<>();
    TailOutput sink =
        new TailOutput() {
          @Override
          public void event(EngineEvent event) {
            events.add(event);
          }

          @Override
          public void rejected(Rejection rejection, byte[] rawLine) {
            throw new IllegalStateException("rejected: " + rejection.message());
          }
        };
    for (String name : List.of("server.log", "otlp.jsonl")) {
      new SourceParser(name, Engine.VLLM, Parsers.create(Engine.VLLM, settings), sink)
          .readFile(sim.resolve(name), LineSplitter.DEFAULT_MAX_LINE_BYTES);
    }
    return events;
  }

  private static void cli(Path out, String... args) throws Exception {
    Child.start(out, args[0], List.of(args)).finish();
  }

  private record Measured(double cpu) {}

  private static Measured child(Path out, String name, List<String> args) throws Exception {
    Child child = Child.start(out, name, args);
    return new Measured(child.finish());
  }

  /** A tokentrace command in its own JVM, its CPU read from /proc. */
  private static final class Child {
    private final Process process;
    private final Path log;
    private final ProcessSampler sampler;

    private Child(Process process, Path log) {
      this.process = process;
      this.log = log;
      this.sampler = new ProcessSampler(process.pid());
    }

    static Child start(Path out, String name, List<String> args) throws IOException {
      List<String> command = new ArrayList<>();
      command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      command.add("-Xmx512m");
      command.add("-cp");
      command.add(System.getProperty("java.class.path"));
      command.add("dev.tokentrace.cli.TokentraceMain"); // its main, in a JVM of its own
      command.addAll(args);
      Path log = out.resolve(name + ".log");
      return new Child(
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start(),
          log);
    }

    void await(String text) throws Exception {
      long deadline = System.nanoTime() + 600_000_000_000L;
      while (!Files.readString(log, StandardCharsets.UTF_8).contains(text)) {
        if (!process.isAlive() || System.nanoTime() > deadline) {
          throw new IllegalStateException("no '" + text + "' in " + log);
        }
        Thread.sleep(50);
      }
    }

    /** CPU seconds up to now, then SIGTERM. */
    double stop() throws Exception {
      double cpu = sampler.cpuSeconds();
      process.destroy();
      process.waitFor();
      return cpu;
    }

    /** CPU seconds of a command that ends by itself (sampled until just before its exit). */
    double finish() throws Exception {
      double cpu = 0;
      while (process.isAlive()) {
        try {
          cpu = sampler.cpuSeconds();
        } catch (IOException e) {
          break; // gone between isAlive and the read
        }
        Thread.sleep(20);
      }
      if (process.waitFor() != 0) {
        throw new IllegalStateException("failed: see " + log);
      }
      return cpu;
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (var paths = Files.walk(dir)) {
      for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
