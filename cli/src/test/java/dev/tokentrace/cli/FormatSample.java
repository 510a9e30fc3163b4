package dev.tokentrace.cli;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.tokentrace.event.Engine;
import dev.tokentrace.parse.ParseSettings;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * One format-generation sample, {@code samples/<engine>/formats/<generation>/}: hand-written server
 * files of one documented format generation, {@code SOURCE.md}, {@code scenario.properties} (the
 * {@code year} and {@code zone} the format does not print) and {@code expected/} as {@code
 * samples/regenerate-formats.sh} wrote it.
 */
record FormatSample(
    Engine engine, String generation, Path dir, List<Path> files, Properties props) {
  static final String FORMATS = "formats";
  static final String EXPECTED = "expected";

  /** Every format sample under {@code samples}, engine by engine, generations in name order. */
  static List<FormatSample> findAll(Path samples) {
    List<FormatSample> found = new ArrayList<>();
    for (Engine engine : Engine.values()) {
      Path formats = samples.resolve(engine.id()).resolve(FORMATS);
      if (Files.isDirectory(formats)) {
        for (Path dir : list(formats, Files::isDirectory)) {
          found.add(of(engine, dir));
        }
      }
    }
    return found;
  }

  private static FormatSample of(Engine engine, Path dir) {
    List<Path> files =
        list(dir, Files::isRegularFile).stream()
            .filter(file -> SampleScenarios.isServerFile(file.getFileName().toString()))
            .toList();
    return new FormatSample(
        engine,
        dir.getFileName().toString(),
        dir,
        files,
        properties(dir.resolve("scenario.properties")));
  }

  /** The instance name regenerate-formats.sh passes to {@code tokentrace parse}. */
  String instance() {
    return engine.id() + "-" + generation;
  }

  ParseSettings settings() {
    return new ParseSettings(
        instance(),
        ZoneId.of(props.getProperty("zone", "UTC")),
        Integer.parseInt(props.getProperty("year", "")));
  }

  /** The source path events carry: relative to the sample, as the script parses from inside it. */
  String relative(Path file) {
    return dir.relativize(file).toString();
  }

  Path expected(String name) {
    return dir.resolve(EXPECTED).resolve(name);
  }

  List<String> expectedLines(String name) {
    Path file = expected(name);
    try {
      return Files.isRegularFile(file) ? Files.readAllLines(file, UTF_8) : List.of();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  @Override
  public String toString() {
    return engine.id() + "/" + generation;
  }

  private static List<Path> list(Path dir, java.util.function.Predicate<Path> filter) {
    try (Stream<Path> children = Files.list(dir)) {
      return children.filter(filter).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + dir, e);
    }
  }

  private static Properties properties(Path file) {
    Properties properties = new Properties();
    if (Files.isRegularFile(file)) {
      try (Reader reader = Files.newBufferedReader(file, UTF_8)) {
        properties.load(reader);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read " + file, e);
      }
    }
    return properties;
  }
}
