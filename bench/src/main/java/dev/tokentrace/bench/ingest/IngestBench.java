package dev.tokentrace.bench.ingest;

import dev.tokentrace.bench.ingest.StageRun.Measured;
import dev.tokentrace.cli.TokentraceMain;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Ingest end to end (BENCHMARKS.md, "Ingest end to end"): simulated vLLM logs (request, stats and
 * iteration lines plus an OTLP export) through {@code parse} (files → NDJSON), {@code ship} (files
 * → Kafka, broker in its own JVM), {@code sink} (Kafka → DuckDB), {@code ingest} (files → embedded
 * broker → DuckDB, one JVM), and the baseline: DuckDB's {@code read_json} of {@code parse}'s NDJSON
 * into the same tables. Each stage is its own JVM with the same heap cap, so memory is per stage;
 * events/s counts the whole process (JVM start, broker start for ingest, DuckDB checkpoint on
 * close).
 *
 * <pre>IngestBench [--events 1000000] [--dir /tmp/tt-bench-ingest] [--heap 512m] [--repeats 1]
 * [--stages parse,read_json,ship,sink,ingest] [--jfr false]</pre>
 *
 * <p>{@code --stages} runs only those stages ({@code read_json} always; {@code parse} when listed
 * or when its NDJSON is missing); {@code --jfr true} records a JFR profile of each tokentrace stage
 * into {@code <dir>/run-N/<stage>.jfr}.
 */
public final class IngestBench {
  /** Events per simulated request with --iteration-log true (measured: 43099 for 2000). */
  private static final double EVENTS_PER_REQUEST = 21.2;

  /** The summary's event count (its {@code parsed=} counts lines since each line counts once). */
  private static final Pattern PARSED = Pattern.compile("events=(\\d+)");

  private static final String MAIN = TokentraceMain.class.getName();

  private final long targetEvents;
  private final Path dir;
  private final String heap;

  private final List<String> stages;
  private final boolean jfr;

  private IngestBench(long targetEvents, Path dir, String heap, List<String> stages, boolean jfr) {
    this.targetEvents = targetEvents;
    this.dir = dir;
    this.heap = heap;
    this.stages = stages;
    this.jfr = jfr;
  }

  public static void main(String[] args) throws Exception {
    Map<String, String> options = new LinkedHashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      options.put(args[i], args[i + 1]);
    }
    long events = Long.parseLong(options.getOrDefault("--events", "1000000"));
    Path dir = Path.of(options.getOrDefault("--dir", "/tmp/tt-bench-ingest"));
    String heap = options.getOrDefault("--heap", "512m");
    int repeats = Integer.parseInt(options.getOrDefault("--repeats", "1"));
    List<String> stages =
        List.of(options.getOrDefault("--stages", "parse,read_json,ship,sink,ingest").split(","));
    boolean jfr = Boolean.parseBoolean(options.getOrDefault("--jfr", "false"));
    IngestBench bench = new IngestBench(events, dir, heap, stages, jfr);
    List<List<Measured>> runs = new ArrayList<>();
    for (int run = 1; run <= repeats; run++) {
      runs.add(bench.runOnce(run));
    }
    String table = Results.table(events, bench.parsedEvents(), runs, heap);
    System.out.println(table);
    Files.writeString(dir.resolve("results-" + events + ".md"), table);
  }

  private List<Measured> runOnce(int run) throws IOException, InterruptedException {
    Path sim = simulate();
    Path work = Files.createDirectories(dir.resolve("run-" + targetEvents));
    List<String> files =
        List.of(sim.resolve("server.log").toString(), sim.resolve("otlp.jsonl").toString());
    List<Measured> measured = new ArrayList<>();
    Path ndjson = work.resolve("events.ndjson");
    if (stages.contains("parse") || !Files.exists(ndjson)) {
      measured.add(
          stage(work, ndjson, "parse", MAIN, concat(List.of("parse", "--engine", "vllm"), files)));
    }
    Path baselineDb = fresh(work.resolve("baseline.duckdb"));
    measured.add(
        stage(
            work,
            "read_json",
            ReadJsonBaseline.class.getName(),
            List.of(ndjson.toString(), baselineDb.toString())));
    if (stages.contains("ship") || stages.contains("sink")) {
      shipAndSink(work, files, measured);
    }
    if (stages.contains("ingest")) {
      Path ingestDb = fresh(work.resolve("ingest.duckdb"));
      measured.add(
          stage(
              work,
              "ingest",
              MAIN,
              concat(List.of("ingest", "--engine", "vllm", "--db", ingestDb.toString()), files)));
    }
    System.err.printf("run %d: %s%n", run, measured);
    return measured;
  }

  private void shipAndSink(Path work, List<String> files, List<Measured> measured)
      throws IOException, InterruptedException {
    int port = freePort();
    String bootstrap = "127.0.0.1:" + port;
    Process broker =
        StageRun.start(
            new Stage(
                "broker",
                List.of("-Xmx512m"),
                MAIN,
                List.of("broker", "--port", Integer.toString(port))),
            work);
    try {
      awaitPort(port);
      measured.add(
          stage(
              work,
              "ship",
              MAIN,
              concat(
                  List.of("ship", "--bootstrap-servers", bootstrap, "--engine", "vllm"), files)));
      Path sinkDb = fresh(work.resolve("sink.duckdb"));
      measured.add(
          stage(
              work,
              "sink",
              MAIN,
              List.of("sink", "--bootstrap-servers", bootstrap, "--db", sinkDb.toString())));
    } finally {
      broker.destroy();
      broker.waitFor();
    }
  }

  /** Events parse found in the simulated files (its summary line), read after the first run. */
  private long parsedEvents() throws IOException {
    String summary = Files.readString(dir.resolve("run-" + targetEvents).resolve("parse.err"));
    Matcher matcher = PARSED.matcher(summary);
    if (!matcher.find()) {
      throw new IllegalStateException("no events= in parse.err: " + summary);
    }
    return Long.parseLong(matcher.group(1));
  }

  private Measured stage(Path work, String name, String main, List<String> args)
      throws IOException, InterruptedException {
    return stage(work, work.resolve(name + ".out"), name, main, args);
  }

  private Measured stage(Path work, Path out, String name, String main, List<String> args)
      throws IOException, InterruptedException {
    System.err.printf("%s ...%n", name);
    List<String> jvm = new ArrayList<>(List.of("-Xmx" + heap));
    if (jfr && main.equals(MAIN)) {
      jvm.add("-XX:StartFlightRecording=settings=profile,filename=" + work.resolve(name + ".jfr"));
      // JFR's start-up note would otherwise open parse's NDJSON on stdout
      jvm.add("-Xlog:jfr+startup=warning");
      // JFR's start-up note goes to stdout, which is parse's NDJSON: read_json then failed on it
      jvm.add("-Xlog:jfr+startup=warning");
    }
    Measured measured = StageRun.run(new Stage(name, jvm, main, args), work, out);
    System.err.printf("%s: %.1f s%n", name, measured.seconds());
    return measured;
  }

  /** The simulated logs for this size, written once (deterministic: same seed, same files). */
  private Path simulate() throws IOException, InterruptedException {
    Path sim = dir.resolve("sim-" + targetEvents);
    if (Files.exists(sim.resolve("otlp.jsonl"))) {
      return sim;
    }
    Files.createDirectories(dir);
    long requests = Math.round(Math.ceil(targetEvents / EVENTS_PER_REQUEST));
    List<String> args =
        List.of(
            "simulate",
            "--engine",
            "vllm",
            "--seed",
            "12",
            "--requests",
            Long.toString(requests),
            "--concurrency",
            "16",
            "--iteration-log",
            "true",
            "--out",
            sim.toString());
    StageRun.run(
        new Stage("simulate", List.of("-Xmx1g"), MAIN, args), dir, dir.resolve("simulate.out"));
    return sim;
  }

  private static Path fresh(Path db) throws IOException {
    Files.deleteIfExists(db);
    Files.deleteIfExists(Path.of(db + ".wal"));
    return db;
  }

  private static List<String> concat(List<String> head, List<String> tail) {
    List<String> all = new ArrayList<>(head);
    all.addAll(tail);
    return all;
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  /** The broker's port accepts connections (ship then retries metadata until it is ready). */
  private static void awaitPort(int port) throws InterruptedException {
    long deadline = System.nanoTime() + 300_000_000_000L; // a loaded machine starts it slowly
    while (System.nanoTime() < deadline) {
      try (Socket socket = new Socket()) {
        socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
        return;
      } catch (IOException e) {
        Thread.sleep(200); // not up yet: try again until the deadline
      }
    }
    throw new IllegalStateException("broker did not open port " + port + " within 300 s");
  }

  static Comparator<Measured> bySeconds() {
    return Comparator.comparingDouble(Measured::seconds);
  }
}
