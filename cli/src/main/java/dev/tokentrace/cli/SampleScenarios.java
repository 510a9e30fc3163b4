package dev.tokentrace.cli;

import dev.tokentrace.event.Engine;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * The checked-in scenarios under {@code samples/<engine>/<scenario>/}: which files are server
 * output (everything but the client file, {@code truth.csv}, docs and {@code expected/}) and which
 * is the client timing file. A scenario with a simulated gateway also has its NGINX access log
 * ({@code client_nginx_access.log}, docs/formats/gateways.md#simulated-gateway); a production
 * scenario has only that, and it is the client file. Only directories with a client file are
 * scenarios: the format-generation samples under {@code samples/<engine>/formats/} have none and
 * are not found here.
 */
final class SampleScenarios {
  static final String CLIENT_FILE = "client_timings.csv";

  /** The simulated gateway's access log in our NGINX log_format. */
  static final String GATEWAY_LOG = "client_nginx_access.log";

  /** The simulated gateway's truth: each attempt's two network legs. */
  static final String GATEWAY_TRUTH = "gateway_truth.csv";

  /**
   * Parse settings the logs do not carry ({@code year}, {@code zone}), written by regenerate.sh.
   */
  static final String PROPERTIES = "scenario.properties";

  /** One scenario directory. */
  record Scenario(
      Engine engine,
      String name,
      Path dir,
      List<Path> serverFiles,
      Path clientFile,
      String clientFormat,
      @Nullable Path gatewayLog,
      Properties properties) {
    /** The instance name stamped on its events and the run id of its client file. */
    String id() {
      return engine.id() + "-" + name;
    }

    /**
     * The simulated GPU telemetry under {@code gpu/} (engine {@code gpu}, the scenario's instance;
     * docs/formats/gpu.md#simulated-telemetry), empty when the scenario has none.
     */
    List<Path> gpuFiles() {
      Path gpu = dir.resolve(GPU_DIR);
      if (!Files.isDirectory(gpu)) {
        return List.of();
      }
      try (Stream<Path> files = Files.walk(gpu)) {
        return files.filter(Files::isRegularFile).sorted().toList();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot list " + gpu, e);
      }
    }
  }

  /** The folder of a scenario's GPU telemetry files. */
  static final String GPU_DIR = "gpu";

  /** The simulated co-tenant's truth: each attempt's server time and whether it was hit. */
  static final String GPU_TRUTH = "gpu_truth.csv";

  private SampleScenarios() {}

  /** The folder of the prefill/decode samples: {@code samples/pd/<engine>/<scenario>/}. */
  static final String PD_DIR = "pd";

  /**
   * A prefill/decode scenario (docs/formats/pd.md#samples): one folder per server, named by its
   * instance ({@code prefill-0}, {@code decode-0}, ...), beside the client file.
   */
  record PdSample(
      Engine engine,
      String name,
      Path dir,
      Map<String, List<Path>> servers,
      Path clientFile,
      Properties properties) {
    /** The run id of its client file, and the prefix of its servers' instance names. */
    String id() {
      return PD_DIR + "-" + engine.id() + "-" + name;
    }

    /** The instance name of one of its servers' folders. */
    String instance(String server) {
      return id() + "-" + server;
    }
  }

  /** The prefill/decode scenarios under {@code samples/pd/<engine>/}; none without that folder. */
  static List<PdSample> findPd(Path samples) {
    List<PdSample> found = new ArrayList<>();
    for (Engine engine : Engine.values()) {
      Path engineDir = samples.resolve(PD_DIR).resolve(engine.id());
      if (!Files.isDirectory(engineDir)) {
        continue;
      }
      for (Path dir : sorted(engineDir)) {
        if (!Files.isRegularFile(dir.resolve(CLIENT_FILE))) {
          continue;
        }
        Map<String, List<Path>> servers = new TreeMap<>();
        for (Path server : sorted(dir)) {
          List<Path> files = serverFiles(server);
          if (!files.isEmpty()) {
            servers.put(server.getFileName().toString(), files);
          }
        }
        found.add(
            new PdSample(
                engine,
                dir.getFileName().toString(),
                dir,
                servers,
                dir.resolve(CLIENT_FILE),
                properties(dir)));
      }
    }
    return found;
  }

  static List<Scenario> find(Path samples) {
    List<Scenario> scenarios = new ArrayList<>();
    for (Engine engine : Engine.values()) {
      Path engineDir = samples.resolve(engine.id());
      if (!Files.isDirectory(engineDir)) {
        continue;
      }
      for (Path dir : sorted(engineDir)) {
        Path gateway = dir.resolve(GATEWAY_LOG);
        boolean hasGateway = Files.isRegularFile(gateway);
        if (Files.isRegularFile(dir.resolve(CLIENT_FILE))) {
          scenarios.add(
              new Scenario(
                  engine,
                  dir.getFileName().toString(),
                  dir,
                  serverFiles(dir),
                  dir.resolve(CLIENT_FILE),
                  "csv",
                  hasGateway ? gateway : null,
                  properties(dir)));
        } else if (hasGateway) { // production: the gateway is the only client-side view
          scenarios.add(
              new Scenario(
                  engine,
                  dir.getFileName().toString(),
                  dir,
                  serverFiles(dir),
                  gateway,
                  "nginx",
                  gateway,
                  properties(dir)));
        }
      }
    }
    return scenarios;
  }

  private static List<Path> serverFiles(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      return files
          .filter(Files::isRegularFile)
          .filter(file -> !dir.relativize(file).startsWith("expected"))
          .filter(file -> !dir.relativize(file).startsWith(GPU_DIR))
          .filter(file -> isServerFile(file.getFileName().toString()))
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + dir, e);
    }
  }

  static boolean isServerFile(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    return !lower.startsWith("client_")
        && !lower.equals("truth.csv")
        && !lower.equals(GATEWAY_TRUTH)
        && !lower.equals(GPU_TRUTH)
        && !lower.equals(PROPERTIES)
        && !lower.endsWith(".md")
        && !lower.startsWith(".");
  }

  private static Properties properties(Path dir) {
    Properties properties = new Properties();
    Path file = dir.resolve(PROPERTIES);
    if (Files.isRegularFile(file)) {
      try (Reader reader = Files.newBufferedReader(file)) {
        properties.load(reader);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read " + file, e);
      }
    }
    return properties;
  }

  private static List<Path> sorted(Path dir) {
    try (Stream<Path> children = Files.list(dir)) {
      return children.filter(Files::isDirectory).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + dir, e);
    }
  }
}
