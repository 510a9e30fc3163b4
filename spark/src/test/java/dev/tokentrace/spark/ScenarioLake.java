package dev.tokentrace.spark;

import dev.tokentrace.clients.ClientRowJson;
import dev.tokentrace.clients.ClientTiming;
import dev.tokentrace.correlate.client.ClientLoadResult;
import dev.tokentrace.correlate.client.ClientLoadSettings;
import dev.tokentrace.correlate.client.ClientTimingLoader;
import dev.tokentrace.event.Engine;
import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.EventTables;
import dev.tokentrace.ingest.tail.SourceParser;
import dev.tokentrace.ingest.tail.TailOutput;
import dev.tokentrace.parse.LineSplitter;
import dev.tokentrace.parse.ParseSettings;
import dev.tokentrace.parse.Parsers;
import dev.tokentrace.parse.Rejection;
import dev.tokentrace.simulator.output.ScenarioWriter;
import dev.tokentrace.simulator.scenario.Parameters;
import dev.tokentrace.simulator.scenario.ScenarioSettings;
import dev.tokentrace.simulator.scenario.Scenarios;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import dev.tokentrace.store.lake.LakeMarker;
import dev.tokentrace.store.lake.LakePartition;
import dev.tokentrace.store.lake.LakeWriter;
import dev.tokentrace.table.Column;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * A simulator scenario written into a lake as sinks write one: the server files through the real
 * parsers into the event tables, the client file through the real loader and then as streamed
 * client rows ({@link ClientRowJson#TABLE}, what {@code ship --follow} sends), each in two commits
 * of its own partition.
 */
final class ScenarioLake {
  static final Clock CLOCK = Clock.fixed(Instant.parse("2026-04-01T00:00:00Z"), ZoneOffset.UTC);
  private static final String START = "2026-03-02T09:00:00.250Z";

  private ScenarioLake() {}

  /** Simulates {@code scenario} (vLLM 0.16) into {@code dir/sim} and writes {@code dir/lake}. */
  static Path write(Path dir, String scenario, int seed, String requests) throws Exception {
    return write(dir, List.of(scenario), seed, requests);
  }

  /**
   * Simulates each scenario (vLLM 0.16, seed {@code seed + i} for the i-th, so no two share a
   * request ID) into {@code dir/sim/NAME} and writes them all into one lake {@code dir/lake}: the
   * scenario's server instance and client run are its name, its events and client rows each a
   * partition of their own (as several sinks of one consumer group write), each in two commits.
   */
  static Path write(Path dir, List<String> scenarios, int seed, String requests) throws Exception {
    Path lake = dir.resolve("lake");
    try (LakeWriter writer =
        LakeWriter.open(lake, LakeMarker.of("tokentrace", "test"), "256MB", 1, Clock.systemUTC())) {
      for (int s = 0; s < scenarios.size(); s++) {
        String scenario = scenarios.get(s);
        Path sim = dir.resolve("sim").resolve(scenario);
        Map<String, String> explicit = new LinkedHashMap<>();
        explicit.put(Parameters.ENGINE, "vllm");
        explicit.put(Parameters.FORMAT_VERSION, "0.16");
        explicit.put(Parameters.SEED, Integer.toString(seed + s));
        explicit.put(Parameters.START, START);
        if (requests != null) {
          explicit.put(Parameters.REQUESTS, requests);
        }
        ScenarioSettings settings = ScenarioSettings.from(Scenarios.effective(scenario, explicit));
        new ScenarioWriter(settings.simulation(), settings.output())
            .write(sim, "simulate --scenario " + scenario, settings.parameters());
        append(
            writer,
            s,
            parse(sim, scenario, Engine.VLLM, file -> scenario),
            clientRows(sim, scenario));
      }
    }
    return lake;
  }

  /** A P/D simulation's files and their engine ({@code simulate --pd NAME --engine ...}). */
  record PdSimulation(String name, Engine engine, Path sim) {}

  /**
   * Writes each P/D simulation into one lake {@code dir/lake} as {@link #write} does (events and
   * client rows in partitions of their own, two commits each): its files through the real parsers
   * of its engine, each server's instance named by its folder ({@code prefill-0}, {@code decode-0},
   * {@code proxy}), as {@code ingest NAME=FILE} names them; its client run is its name.
   */
  static Path writePd(Path dir, List<PdSimulation> simulations) throws Exception {
    Path lake = dir.resolve("lake");
    try (LakeWriter writer =
        LakeWriter.open(lake, LakeMarker.of("tokentrace", "test"), "256MB", 1, Clock.systemUTC())) {
      for (int s = 0; s < simulations.size(); s++) {
        PdSimulation pd = simulations.get(s);
        append(
            writer,
            s,
            parse(
                pd.sim(),
                pd.name(),
                pd.engine(),
                file -> pd.sim().relativize(file).getName(0).toString()),
            clientRows(pd.sim(), pd.name()));
      }
    }
    return lake;
  }

  private static void append(
      LakeWriter writer, int s, List<EngineEvent> events, List<Object[]> clients) throws Exception {
    LakePartition eventPartition = new LakePartition("tokentrace.events", s);
    LakePartition clientPartition = new LakePartition("tokentrace.clients", s);
    writer.recover(eventPartition, "events-topic");
    writer.startAt(eventPartition, 0);
    writer.recover(clientPartition, "clients-topic");
    writer.startAt(clientPartition, 0);
    long offset = 0;
    int half = events.size() / 2;
    for (int i = 0; i < events.size(); i++) {
      EngineEvent event = events.get(i);
      writer.append(eventPartition, EventTables.of(event), event);
      writer.advance(eventPartition, ++offset);
      if (i == half) {
        writer.flush();
      }
    }
    long clientOffset = 0;
    for (Object[] row : clients) {
      writer.append(clientPartition, ClientRowJson.TABLE, row);
      writer.advance(clientPartition, ++clientOffset);
    }
    writer.flush();
  }

  private static List<EngineEvent> parse(
      Path sim, String runId, Engine engine, Function<Path, String> instance) throws IOException {
    List<EngineEvent> events = new ArrayList<>();
    List<String> rejections = new ArrayList<>();
    TailOutput sink =
        new TailOutput() {
          @Override
          public void event(EngineEvent event) {
            events.add(event);
          }

          @Override
          public void rejected(Rejection rejection, byte[] rawLine) {
            rejections.add(rejection.message());
          }
        };
    for (Path file : serverFiles(sim)) {
      ParseSettings settings = new ParseSettings(instance.apply(file), ZoneOffset.UTC, 2026);
      new SourceParser(
              sim.getParent().relativize(file).toString(), // NAME/file: one path per scenario
              engine,
              Parsers.create(engine, settings),
              sink)
          .readFile(file, LineSplitter.DEFAULT_MAX_LINE_BYTES);
    }
    if (!rejections.isEmpty()) {
      throw new IllegalStateException(runId + ": lines rejected: " + rejections);
    }
    return events;
  }

  /** The server files of a simulated directory (as cli's SampleScenarios picks them). */
  private static List<Path> serverFiles(Path sim) throws IOException {
    try (Stream<Path> files = Files.walk(sim)) {
      return files
          .filter(Files::isRegularFile)
          .filter(file -> !sim.relativize(file).startsWith("expected"))
          .filter(file -> !sim.relativize(file).startsWith("gpu"))
          .filter(
              file -> {
                String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
                return !name.startsWith("client_")
                    && !name.equals("truth.csv")
                    && !name.endsWith("truth.csv")
                    && !name.endsWith(".properties")
                    && !name.endsWith(".md")
                    && !name.startsWith(".");
              })
          .sorted()
          .toList();
    }
  }

  /**
   * The client file's rows as the loader stores them, as values of {@link ClientRowJson#TABLE}: the
   * client CSV, or for a production scenario (no client) the gateway's access log.
   */
  private static List<Object[]> clientRows(Path sim, String runId) throws Exception {
    Path csv = sim.resolve("client_timings.csv");
    Path gateway = sim.resolve("client_nginx_access.log");
    List<Path> files = new ArrayList<>();
    String format;
    if (Files.isRegularFile(csv)) {
      files.add(csv);
      format = "csv";
    } else {
      files.add(gateway);
      format = "nginx";
    }
    List<Object[]> rows = new ArrayList<>();
    try (Database db = Database.open(DatabaseSettings.inMemory())) {
      ClientLoadResult loaded =
          new ClientTimingLoader(db, CLOCK)
              .load(ClientLoadSettings.from(files, format, runId, null, "test", null));
      if (!loaded.messages().isEmpty()) {
        throw new IllegalStateException("client rows rejected: " + loaded.messages());
      }
      List<? extends Column<?>> columns = ClientTiming.TABLE.columns();
      List<String> select = new ArrayList<>();
      for (Column<?> column : columns) {
        select.add(
            column.type().name().equals("TIMESTAMP")
                ? "epoch_us(" + column.name() + ")"
                : column.name());
      }
      try (Connection connection = db.newConnection();
          Statement statement = connection.createStatement();
          ResultSet result =
              statement.executeQuery(
                  "SELECT " + String.join(", ", select) + " FROM client_timing ORDER BY rowid")) {
        while (result.next()) {
          Object[] row = new Object[columns.size()];
          for (int i = 0; i < row.length; i++) {
            Object value = result.getObject(i + 1);
            if (value != null && columns.get(i).type().name().equals("TIMESTAMP")) {
              long micros = ((Number) value).longValue();
              value =
                  Instant.ofEpochSecond(
                      Math.floorDiv(micros, 1_000_000), Math.floorMod(micros, 1_000_000) * 1000L);
            }
            row[i] = value;
          }
          rows.add(row);
        }
      }
    }
    return rows;
  }
}
