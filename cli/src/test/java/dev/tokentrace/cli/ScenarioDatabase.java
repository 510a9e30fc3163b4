package dev.tokentrace.cli;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.tokentrace.correlate.attribution.AttributionSettings;
import dev.tokentrace.correlate.attribution.Attributor;
import dev.tokentrace.correlate.client.ClientLoadResult;
import dev.tokentrace.correlate.client.ClientLoadSettings;
import dev.tokentrace.correlate.client.ClientTimingLoader;
import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.ingest.tail.SourceParser;
import dev.tokentrace.ingest.tail.TailOutput;
import dev.tokentrace.parse.LineSplitter;
import dev.tokentrace.parse.ParseSettings;
import dev.tokentrace.parse.Parsers;
import dev.tokentrace.parse.Rejection;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds analysis databases for query and report tests from simulated or checked-in scenarios:
 * server files through the real parsers ({@link SourceParser}, as ingest reads them) into the event
 * tables ({@link EventTables}, no Kafka), client files through the real loader, attribution
 * computed with the default rules.
 */
final class ScenarioDatabase {
  static final Clock CLOCK = Clock.fixed(Instant.parse("2026-04-01T00:00:00Z"), ZoneOffset.UTC);

  /** The start of every simulated scenario, so logs without a year parse with {@link #YEAR}. */
  static final String START = "2026-03-02T09:00:00.250Z";

  static final String YEAR = "2026";

  private ScenarioDatabase() {}

  /**
   * Runs {@code tokentrace simulate} for vLLM 0.16 into {@code root/vllm/<name>} with the given
   * seed (each scenario its own, so request IDs never collide), a fixed start and the
   * space-separated {@code args}, and writes its scenario.properties.
   */
  static SampleScenarios.Scenario simulate(Path root, String name, int seed, String args) {
    return simulate(root, "vllm", name, seed, ("--format-version 0.16 " + args).split(" "));
  }

  /** As {@link #simulate(Path, String, int, String)} for any engine and format. */
  static SampleScenarios.Scenario simulate(
      Path root, String engine, String name, int seed, String... args) {
    Path dir = root.resolve(engine).resolve(name);
    List<String> command =
        new ArrayList<>(
            List.of(
                "simulate",
                "--engine",
                engine,
                "--seed",
                Integer.toString(seed),
                "--start",
                START,
                "--out",
                dir.toString()));
    command.addAll(List.of(args));
    StringWriter err = new StringWriter();
    var commandLine = TokentraceMain.commandLine();
    commandLine.setOut(new PrintWriter(new StringWriter()));
    commandLine.setErr(new PrintWriter(err));
    int code = commandLine.execute(command.toArray(String[]::new));
    if (code != 0) {
      throw new IllegalStateException("simulate " + command + " failed: " + err);
    }
    try {
      Files.writeString(dir.resolve(SampleScenarios.PROPERTIES), "year=" + YEAR + "\nzone=UTC\n");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return SampleScenarios.find(root).stream()
        .filter(scenario -> scenario.dir().equals(dir))
        .findFirst()
        .orElseThrow();
  }

  /** An empty database file in {@code dir}. */
  static Database open(Path dir, String name) {
    return Database.open(DatabaseSettings.from(dir.resolve(name + ".duckdb"), null, 1));
  }

  /** Loads the scenario's server files and its client file (as run {@code scenario.id()}). */
  static void load(Database database, SampleScenarios.Scenario scenario) {
    load(database, scenario, scenario.clientFile());
  }

  /** Loads the scenario's server files and the given client file (as run {@code scenario.id()}). */
  static void load(Database database, SampleScenarios.Scenario scenario, Path clientFile) {
    EventTables.insert(database, parse(scenario));
    loadClients(database, scenario, clientFile);
  }

  /** Loads only the given client file (as run {@code scenario.id()}), as {@link #load} does. */
  static void loadClients(Database database, SampleScenarios.Scenario scenario, Path clientFile) {
    ClientLoadResult loaded =
        new ClientTimingLoader(database, CLOCK)
            .load(
                ClientLoadSettings.from(
                    List.of(clientFile), "csv", scenario.id(), null, "test", null));
    if (!loaded.messages().isEmpty()) {
      throw new IllegalStateException("client rows rejected: " + loaded.messages());
    }
  }

  /** Computes the attribution with the default rules. */
  static void attribute(Database database) {
    new Attributor(database, CLOCK).run(AttributionSettings.defaults(), "test");
  }

  /** The events the engine's parser makes of the scenario's server files; no line rejected. */
  static List<EngineEvent> parse(SampleScenarios.Scenario scenario) {
    return parse(scenario, scenario.serverFiles(), scenario.engine());
  }

  /**
   * The events {@code engine}'s parser makes of some of the scenario's files (e.g. its GPU
   * telemetry with {@code Engine.GPU}), stamped with the scenario's instance; no line rejected.
   */
  static List<EngineEvent> parse(
      SampleScenarios.Scenario scenario, List<Path> files, dev.tokentrace.event.Engine engine) {
    ParseSettings settings =
        new ParseSettings(
            scenario.id(),
            ZoneId.of(scenario.properties().getProperty("zone", "UTC")),
            Integer.parseInt(scenario.properties().getProperty("year", YEAR)));
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
    for (Path file : files) {
      try {
        new SourceParser(
                scenario.dir().relativize(file).toString(),
                engine,
                Parsers.create(engine, settings),
                sink)
            .readFile(file, LineSplitter.DEFAULT_MAX_LINE_BYTES);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read " + file, e);
      }
    }
    if (!rejections.isEmpty()) {
      throw new IllegalStateException(scenario.id() + ": lines rejected: " + rejections);
    }
    return events;
  }

  /** Writes {@code text} to {@code file}, for edited client files. */
  static Path write(Path file, String text) {
    try {
      Files.createDirectories(file.getParent());
      return Files.writeString(file, text, UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
