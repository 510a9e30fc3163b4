package dev.tokentrace.parse.trtllm;

import dev.tokentrace.parse.ConfigFacts;
import dev.tokentrace.parse.ConfigFacts.Fact;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * TensorRT-LLM's startup messages that say how the server is configured
 * (docs/formats/trtllm.md#startup-configuration-lines): the import banner's version, the version an
 * engine was built with, the PyTorch executor's limits line ({@code max_seq_len=N,
 * max_num_requests=N, max_num_tokens=N, max_batch_size=N}, any such all-{@code key=value} line),
 * the paged KV-cache allocation ({@code [MemUsageChange] Allocated X GiB for max tokens in paged KV
 * cache (N).}), the GPU each rank uses, the MPI world size, and the limits it overrides or defaults
 * ({@code Overriding max_num_tokens to N}, {@code Using default gpus_per_node: N}).
 */
final class StartupConfig {
  private static final Pattern VERSION = Pattern.compile("TensorRT-LLM version: (\\S+)");
  private static final Pattern ENGINE_VERSION =
      Pattern.compile("Engine version (\\S+) found in the config file");

  /** Two or more {@code key=value} entries and nothing else. */
  private static final Pattern KEY_VALUES =
      Pattern.compile("[a-z][a-z0-9_]*=[^\\s,=]+(?:, [a-z][a-z0-9_]*=[^\\s,=]+)+\\.?");

  private static final Pattern KV_CACHE =
      Pattern.compile(
          "\\[MemUsageChange\\] Allocated ([\\d.]+) GiB for max tokens in paged KV cache"
              + " \\((\\d+)\\)\\.?");

  private static final Pattern GPU = Pattern.compile("Rank (\\d+) is using GPU (\\d+)");
  private static final Pattern MPI = Pattern.compile("MPI size: (\\d+), rank: (\\d+)");
  private static final Pattern OVERRIDE =
      Pattern.compile("Overriding (\\w+) to (\\S+?)\\.?(?: for .*)?");
  private static final Pattern DEFAULT = Pattern.compile("Using default (\\w+): (\\S+?)\\.?");

  private StartupConfig() {}

  /** The facts of a logger message, or null when it is not one of these lines. */
  static ConfigFacts.@Nullable Facts facts(String message) {
    List<Fact> facts = new ArrayList<>();
    String section;
    Matcher m;
    if ((m = VERSION.matcher(message)).matches()) {
      section = "version";
      facts.add(new Fact("version", m.group(1)));
    } else if ((m = ENGINE_VERSION.matcher(message)).lookingAt()) {
      section = "engine_build";
      facts.add(new Fact("engine_build_version", m.group(1)));
    } else if (KEY_VALUES.matcher(message).matches()) {
      section = "limits";
      String body = message.endsWith(".") ? message.substring(0, message.length() - 1) : message;
      facts.addAll(ConfigFacts.keywordArgs(body, 0));
    } else if ((m = KV_CACHE.matcher(message)).matches()) {
      section = "kv_cache";
      facts.add(new Fact("kv_cache_gib", m.group(1)));
      facts.add(new Fact("kv_cache_tokens", m.group(2)));
    } else if ((m = GPU.matcher(message)).matches()) {
      section = "gpu";
      facts.add(new Fact("gpu_device.rank" + m.group(1), m.group(2)));
    } else if ((m = MPI.matcher(message)).matches()) {
      section = "gpu";
      facts.add(new Fact("mpi_size", m.group(1)));
    } else if ((m = OVERRIDE.matcher(message)).matches()) {
      section = "override";
      facts.add(new Fact(m.group(1), m.group(2)));
    } else if ((m = DEFAULT.matcher(message)).matches()) {
      section = "default";
      facts.add(new Fact(m.group(1), m.group(2)));
    } else {
      return null;
    }
    return new ConfigFacts.Facts(section, facts);
  }
}
