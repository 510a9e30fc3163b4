package dev.tokentrace.parse.vllm;

import dev.tokentrace.event.Engine;
import dev.tokentrace.parse.ConfigFacts;
import dev.tokentrace.parse.ConfigFacts.Fact;
import dev.tokentrace.parse.ParseOutput;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The startup lines that say how a vLLM server is configured, each read into {@code server_config}
 * facts (docs/formats/vllm.md#startup-configuration-lines): the API server version, the launch
 * arguments ({@code args: Namespace(...)} of V0, {@code non-default args: {...}} of V1), the engine
 * config dump ({@code Initializing a V1 LLM engine (v0.9.1) with config: ...}), the chunked-prefill
 * budget, usage-context defaults ({@code Setting max_num_seqs to 256 for ...}), the KV-cache
 * capacity ({@code # GPU blocks}, {@code GPU KV cache size}), the maximum concurrency and the
 * detected platform. Secrets in the arguments are redacted by {@code ServerConfig} itself.
 */
final class StartupConfig {
  private static final String VERSION = "vLLM API server version ";
  private static final String NON_DEFAULT = "non-default args: ";
  private static final String NAMESPACE = "args: Namespace(";
  private static final String INIT = "Initializing ";
  private static final String WITH_CONFIG = " with config: ";
  private static final String CHUNKED = "Chunked prefill is enabled with max_num_batched_tokens=";
  private static final String KV_SIZE = "GPU KV cache size: ";
  private static final String PLATFORM = "Automatically detected platform ";

  /** {@code Initializing a V1 LLM engine (v0.9.1)}, {@code Initializing an LLM engine}. */
  private static final Pattern ENGINE =
      Pattern.compile("Initializing (?:a|an) (V1 )?LLM engine(?: \\(v([^)\\s]+)\\))?");

  private static final Pattern CONCURRENCY =
      Pattern.compile("Maximum concurrency for ([\\d,]+) tokens per request: ([\\d.]+)x");

  /** V0 {@code # GPU blocks: 7412, # CPU blocks: 512}; {@code # cuda blocks} on some platforms. */
  private static final Pattern BLOCKS =
      Pattern.compile("# (\\w+) blocks: (\\d+)(?:, # CPU blocks: (\\d+))?");

  private static final Pattern USAGE_DEFAULT =
      Pattern.compile("Setting (\\w+) to (\\S+) for (\\w+) usage context\\.?");

  private StartupConfig() {}

  /** True when the message was a configuration line (and its facts have been sent). */
  static boolean handle(RecordLine line, ParseOutput sink) {
    String message = line.message();
    int start = OtherRecords.enginePrefixEnd(message);
    ConfigFacts.Facts facts = facts(message, start);
    if (facts == null) {
      return false;
    }
    ConfigFacts.emit(
        Engine.VLLM,
        line.instance(),
        line.ts(),
        line.position(),
        facts.section(),
        facts.facts(),
        sink);
    if (facts.facts().isEmpty()) {
      line.ignore(sink, "vllm: empty configuration line");
    }
    return true;
  }

  /** The facts of a configuration message with their section, or null when it is none. */
  static ConfigFacts.@Nullable Facts facts(String message, int start) {
    List<Fact> facts = new ArrayList<>();
    String section;
    if (message.startsWith(VERSION, start)) {
      section = "version";
      facts.add(new Fact("version", message.substring(start + VERSION.length()).trim()));
    } else if (message.startsWith(NON_DEFAULT, start)) {
      section = "args";
      facts.addAll(ConfigFacts.dict(message, start + NON_DEFAULT.length()));
    } else if (message.startsWith(NAMESPACE, start)) {
      section = "args";
      facts.addAll(ConfigFacts.keywordArgs(message, start + NAMESPACE.length()));
    } else if (message.startsWith(INIT, start) && message.contains(WITH_CONFIG)) {
      section = "engine_config";
      Matcher engine = ENGINE.matcher(message).region(start, message.length());
      if (!engine.lookingAt()) {
        return null;
      }
      if (engine.group(2) != null) {
        facts.add(new Fact("version", engine.group(2)));
      }
      facts.add(new Fact("engine_core", engine.group(1) != null ? "V1" : "V0"));
      int config = message.indexOf(WITH_CONFIG) + WITH_CONFIG.length();
      facts.addAll(ConfigFacts.keywordArgs(message, config));
    } else if (message.startsWith(CHUNKED, start)) {
      section = "scheduler";
      int from = start + CHUNKED.length();
      int end = Ascii.digitsEnd(message, from);
      if (end == from) {
        return null;
      }
      facts.add(new Fact("chunked_prefill_enabled", "True"));
      facts.add(new Fact("max_num_batched_tokens", message.substring(from, end)));
    } else if (message.startsWith(KV_SIZE, start)) {
      section = "kv_cache";
      int from = start + KV_SIZE.length();
      int end = from;
      while (end < message.length()
          && (Ascii.isDigit(message.charAt(end)) || message.charAt(end) == ',')) {
        end++;
      }
      if (end == from) {
        return null;
      }
      facts.add(new Fact("gpu_kv_cache_tokens", message.substring(from, end).replace(",", "")));
    } else if (message.startsWith("Maximum concurrency for ", start)) {
      section = "kv_cache";
      Matcher m = CONCURRENCY.matcher(message).region(start, message.length());
      if (!m.lookingAt()) {
        return null;
      }
      facts.add(new Fact("max_concurrency", m.group(2)));
      facts.add(new Fact("max_concurrency_tokens_per_request", m.group(1).replace(",", "")));
    } else if (message.startsWith("# ", start)) {
      section = "kv_cache";
      Matcher m = BLOCKS.matcher(message).region(start, message.length());
      if (!m.lookingAt()) {
        return null;
      }
      facts.add(new Fact("num_gpu_blocks", m.group(2)));
      if (m.group(3) != null) {
        facts.add(new Fact("num_cpu_blocks", m.group(3)));
      }
    } else if (message.startsWith("Setting ", start)) {
      section = "usage_default";
      Matcher m = USAGE_DEFAULT.matcher(message).region(start, message.length());
      if (!m.matches()) {
        return null;
      }
      facts.add(new Fact(m.group(1), m.group(2)));
    } else if (message.startsWith(PLATFORM, start)) {
      section = "platform";
      String platform = message.substring(start + PLATFORM.length()).trim();
      if (platform.endsWith(".")) {
        platform = platform.substring(0, platform.length() - 1);
      }
      facts.add(new Fact("platform", platform));
    } else {
      return null;
    }
    return new ConfigFacts.Facts(section, facts);
  }
}
