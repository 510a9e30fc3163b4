package dev.tokentrace.clients;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * A benchmark tool's output folder given to {@code tokentrace clients} instead of a file: an AIPerf
 * artifacts directory, a GenAI-Perf export folder or a folder holding a GuideLLM report
 * (docs/formats/client-files.md#output-folders). Finds the per-request file and reads the run's
 * load (concurrency or request rate) from the tool's aggregate file next to it.
 *
 * @param tool the tool whose layout the folder has
 * @param requests the per-request file to load
 * @param aggregate the aggregate file the load was read from, or null
 * @param concurrency the run's concurrency level, or null when the aggregate gives none
 * @param requestRate the run's request rate in requests per second, or null
 */
public record ClientArtifacts(
    String tool,
    Path requests,
    @Nullable Path aggregate,
    @Nullable Integer concurrency,
    @Nullable Double requestRate) {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** How deep below the given folder a run's files are looked for (artifacts/<run>/...). */
  private static final int DEPTH = 3;

  /** The tools' per-request file and aggregate file names, in the order they are tried. */
  private enum Layout {
    AIPERF("AIPerf", "profile_export.jsonl", "profile_export_aiperf.json"),
    GENAI_PERF("GenAI-Perf", "profile_export.json", "profile_export_genai_perf.json"),
    GUIDELLM("GuideLLM", "benchmarks.json", null),
    GUIDELLM_YAML("GuideLLM", "benchmarks.yaml", null);

    final String tool;
    final String requests;
    final @Nullable String aggregate;

    Layout(String tool, String requests, @Nullable String aggregate) {
      this.tool = tool;
      this.requests = requests;
      this.aggregate = aggregate;
    }
  }

  /**
   * The run in {@code folder}: its files directly in it, or in the one subfolder (up to {@value
   * #DEPTH} levels down) that holds a run.
   *
   * @throws IllegalArgumentException naming the folder when it holds no run or several (one
   *     invocation of {@code clients} is one run: give each run's folder on its own)
   */
  public static ClientArtifacts find(Path folder) {
    ClientArtifacts here = in(folder);
    if (here != null) {
      return here;
    }
    List<ClientArtifacts> found = new ArrayList<>();
    try (Stream<Path> dirs = Files.walk(folder, DEPTH)) {
      for (Path dir : dirs.filter(Files::isDirectory).sorted().toList()) {
        ClientArtifacts run = dir.equals(folder) ? null : in(dir);
        if (run != null) {
          found.add(run);
        }
      }
    } catch (IOException e) {
      throw new IllegalArgumentException(folder + ": cannot list the folder: " + e.getMessage(), e);
    }
    if (found.isEmpty()) {
      throw new IllegalArgumentException(
          folder
              + ": no benchmark output in this folder (looked for AIPerf profile_export.jsonl,"
              + " GenAI-Perf profile_export.json or <name>.json with <name>_genai_perf.json,"
              + " GuideLLM benchmarks.json/.yaml, "
              + DEPTH
              + " levels deep); give the per-request file itself");
    }
    if (found.size() > 1) {
      List<String> runs = found.stream().map(run -> run.requests().getParent().toString()).toList();
      throw new IllegalArgumentException(
          folder
              + ": holds "
              + found.size()
              + " runs ("
              + String.join(", ", runs)
              + "); one 'clients' invocation is one run: load each folder on its own");
    }
    return found.get(0);
  }

  /**
   * GenAI-Perf names both files after {@code --profile-export-file} (default {@code
   * profile_export.json}): {@code <prefix>.json} and {@code <prefix>_genai_perf.json}
   * (docs/formats/client-files.md#output-folders).
   */
  private static final String GENAI_PERF_SUFFIX = "_genai_perf.json";

  /** The run whose files lie directly in {@code dir}, or null. */
  private static @Nullable ClientArtifacts in(Path dir) {
    ClientArtifacts standard = inStandardLayout(dir);
    return standard != null ? standard : genaiPerfWithOwnPrefix(dir);
  }

  /**
   * A GenAI-Perf run exported with its own {@code --profile-export-file} name: exactly one {@code
   * <prefix>_genai_perf.json} with its {@code <prefix>.json} beside it.
   */
  private static @Nullable ClientArtifacts genaiPerfWithOwnPrefix(Path dir) {
    List<Path> aggregates;
    try (Stream<Path> files = Files.list(dir)) {
      aggregates =
          files
              .filter(file -> file.getFileName().toString().endsWith(GENAI_PERF_SUFFIX))
              .filter(Files::isRegularFile)
              .toList();
    } catch (IOException e) {
      return null; // an unreadable folder holds no run; the caller names what it looked for
    }
    if (aggregates.size() != 1) {
      return null;
    }
    Path aggregate = aggregates.get(0);
    String name = aggregate.getFileName().toString();
    Path requests =
        dir.resolve(name.substring(0, name.length() - GENAI_PERF_SUFFIX.length()) + ".json");
    if (!Files.isRegularFile(requests)) {
      return null;
    }
    JsonNode config = inputConfig(aggregate);
    return new ClientArtifacts(
        Layout.GENAI_PERF.tool,
        requests,
        aggregate,
        positiveInt(config, "concurrency"),
        positiveDouble(config, "request_rate"));
  }

  private static @Nullable ClientArtifacts inStandardLayout(Path dir) {
    for (Layout layout : Layout.values()) {
      Path requests = dir.resolve(layout.requests);
      if (!Files.isRegularFile(requests)) {
        continue;
      }
      Path aggregate = layout.aggregate == null ? null : dir.resolve(layout.aggregate);
      if (aggregate == null || !Files.isRegularFile(aggregate)) {
        return new ClientArtifacts(layout.tool, requests, null, null, null);
      }
      JsonNode config = inputConfig(aggregate);
      return new ClientArtifacts(
          layout.tool,
          requests,
          aggregate,
          positiveInt(config, "concurrency"),
          positiveDouble(config, "request_rate"));
    }
    return null;
  }

  /**
   * The load settings of an aggregate file: AIPerf nests them as {@code input_config.loadgen},
   * GenAI-Perf keeps them in {@code input_config} itself
   * (docs/formats/client-files.md#output-folders).
   */
  private static JsonNode inputConfig(Path aggregate) {
    JsonNode root;
    try {
      root = JSON.readTree(aggregate.toFile());
    } catch (IOException e) {
      throw new IllegalArgumentException(
          aggregate + ": not a readable JSON aggregate file: " + e.getMessage(), e);
    }
    JsonNode config = root == null ? null : root.path("input_config");
    if (config == null || config.isMissingNode()) {
      return JSON.createObjectNode();
    }
    JsonNode loadgen = config.path("loadgen");
    return loadgen.isObject() ? loadgen : config;
  }

  private static @Nullable Integer positiveInt(JsonNode config, String key) {
    JsonNode value = config.path(key);
    return value.canConvertToInt() && value.asInt() > 0 ? value.asInt() : null;
  }

  private static @Nullable Double positiveDouble(JsonNode config, String key) {
    JsonNode value = config.path(key);
    return value.isNumber() && value.asDouble() > 0 && Double.isFinite(value.asDouble())
        ? value.asDouble()
        : null;
  }

  /** What was found, for the command's output: {@code AIPerf run in DIR: concurrency 8 (...)}. */
  public String describe() {
    StringBuilder text = new StringBuilder(tool).append(" output: ").append(requests);
    if (aggregate == null) {
      return text.append(
              " (no aggregate file: the load level comes from the rows or --concurrency)")
          .toString();
    }
    text.append("; from ").append(aggregate.getFileName()).append(": ");
    if (concurrency == null && requestRate == null) {
      return text.append("no concurrency or request rate recorded").toString();
    }
    List<String> load = new ArrayList<>();
    if (concurrency != null) {
      load.add("concurrency " + concurrency);
    }
    if (requestRate != null) {
      load.add(String.format(Locale.ROOT, "request rate %s/s", plain(requestRate)));
    }
    return text.append(String.join(", ", load)).toString();
  }

  private static String plain(double value) {
    return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
  }
}
