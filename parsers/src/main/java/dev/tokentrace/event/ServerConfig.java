package dev.tokentrace.event;

import static dev.tokentrace.table.ColumnType.VARCHAR;
import static java.util.Objects.requireNonNull;

import dev.tokentrace.table.TableSchema;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * One configuration fact a server printed about itself at startup: its version, a launch argument,
 * an engine setting, a capacity it computed (KV-cache size, maximum concurrency) or a GPU fact. The
 * key is the engine's own name for the setting where it prints one ({@code max_num_seqs}, {@code
 * tp_size}, {@code max_batch_size}), else a documented name of ours ({@code version}, {@code
 * gpu_kv_cache_tokens}); the value is the text the engine printed, outer quotes removed. The
 * section names the kind of line it came from ({@code args}: the launch arguments as given, which
 * may be unresolved like {@code max_model_len=None}; {@code engine_config}, {@code limits}, {@code
 * kv_cache}, ...: what the engine resolved), so that the same key is compared with itself across
 * restarts. Several facts usually share one source line.
 * docs/formats/vllm.md#startup-configuration-lines and its SGLang and TensorRT-LLM counterparts
 * list them.
 *
 * <p>Secrets never get in: the constructor passes every value through {@link Redaction} (API keys,
 * tokens, passwords by key name; secrets anywhere in a value: docs/privacy.md#secrets), so an
 * event, a topic record or a table row cannot carry one whatever the parser did.
 */
public record ServerConfig(
    Engine engine,
    String instance,
    @Nullable Instant ts,
    SourcePosition source,
    String section,
    String key,
    String value)
    implements EngineEvent {
  public static final String TYPE = "server_config";

  public static final EventTable<ServerConfig> TABLE =
      new EventTable<>(
          TYPE,
          ServerConfig.class,
          TableSchema.columns(ServerConfig.class)
              .required("section", VARCHAR, ServerConfig::section)
              .required("key", VARCHAR, ServerConfig::key)
              .required("value", VARCHAR, ServerConfig::value)
              .list(),
          v ->
              new ServerConfig(
                  v.engine(), v.instance(), v.ts(), v.source(), v.text(0), v.text(1), v.text(2)));

  public static final int MAX_KEY = 128;
  public static final int MAX_VALUE = 256;

  public ServerConfig {
    requireNonNull(engine, "engine is null");
    requireNonNull(instance, "instance is null");
    requireNonNull(source, "source is null");
    requireNonNull(section, "section is null");
    requireNonNull(key, "key is null");
    requireNonNull(value, "value is null");
    EventChecks.notBlank("section", section);
    EventChecks.notBlank("key", key);
    section = EventChecks.cap(section, MAX_KEY);
    key = EventChecks.cap(key, MAX_KEY);
    value = EventChecks.cap(Redaction.configValue(key, value), MAX_VALUE);
  }

  @Override
  public String type() {
    return TYPE;
  }
}
