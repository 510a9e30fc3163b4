package dev.tokentrace.simulator.scenario;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.event.Engine;
import dev.tokentrace.simulator.ArrivalMode;
import dev.tokentrace.simulator.ClientSettings;
import dev.tokentrace.simulator.Distribution;
import dev.tokentrace.simulator.GpuSettings;
import dev.tokentrace.simulator.NetworkSettings;
import dev.tokentrace.simulator.ServerSettings;
import dev.tokentrace.simulator.SimulationSettings;
import dev.tokentrace.simulator.WorkloadSettings;
import dev.tokentrace.simulator.output.Api;
import dev.tokentrace.simulator.output.ClientFormat;
import dev.tokentrace.simulator.output.EngineFormat;
import dev.tokentrace.simulator.output.OutputSettings;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * A fully resolved run: model settings, output settings, and the parameter values they came from
 * (with {@code auto} replaced by what it chose), in help order.
 */
public record ScenarioSettings(
    SimulationSettings simulation, OutputSettings output, Map<String, String> parameters) {
  public ScenarioSettings {
    requireNonNull(simulation, "simulation is null");
    requireNonNull(output, "output is null");
    parameters = Collections.unmodifiableMap(new LinkedHashMap<>(parameters));
  }

  /**
   * Resolves a complete set of parameter values ({@link Parameters#defaults()} plus overrides).
   *
   * @throws IllegalArgumentException listing every bad value, one per line, each naming its option
   */
  public static ScenarioSettings from(Map<String, String> values) {
    for (String name : Parameters.defaults().keySet()) {
      if (!values.containsKey(name)) {
        throw new IllegalArgumentException("no value for " + name);
      }
    }
    Values read = new Values(values);
    Engine engine = read.parse(Parameters.ENGINE, Engine::fromId, Engine.VLLM);
    EngineFormat format =
        read.isAuto(Parameters.FORMAT_VERSION)
            ? EngineFormat.latest(engine)
            : read.parse(
                Parameters.FORMAT_VERSION,
                text -> EngineFormat.of(engine, text),
                EngineFormat.latest(engine));
    Map<String, String> resolved = new LinkedHashMap<>(values);
    resolved.put(Parameters.FORMAT_VERSION, format.version());
    WorkloadSettings workload = build(read, () -> workload(read));
    ServerSettings server = build(read, () -> server(read, format, resolved));
    NetworkSettings network = build(read, () -> network(read));
    ClientSettings client = build(read, () -> client(read));
    GpuSettings gpu = build(read, () -> gpu(read));
    OutputSettings output = build(read, () -> output(read, format, resolved));
    SimulationSettings simulation =
        workload == null || server == null || network == null || client == null || gpu == null
            ? null
            : build(
                read,
                () ->
                    new SimulationSettings(
                        read.longValue(Parameters.SEED), workload, server, network, client, gpu));
    if (output != null && network != null && !output.clientFile() && !network.gateway()) {
      read.problem(
          Parameters.CLIENT_FILE
              + ": false needs a gateway (--gateway-uplink-ms and --gateway-downlink-ms), or no"
              + " file would hold the client side");
    }
    if (network != null
        && network.gateway()
        && output != null
        && output.clientFormat() != ClientFormat.CSV) {
      read.problem(
          Parameters.GATEWAY_UPLINK_MS
              + ": a gateway is simulated with --client-format csv only (the gateway logs the"
              + " X-Request-Id our CSV's IDs are sent as)");
    }
    if (!read.problems().isEmpty() || simulation == null || output == null) {
      throw new IllegalArgumentException(String.join("\n", read.problems()));
    }
    return new ScenarioSettings(simulation, output, resolved);
  }

  /** Record fields whose option is not their kebab-case name. */
  private static final Map<String, String> OPTION_OF_FIELD =
      Map.of(
          "ratePerSecond", Parameters.RATE,
          "slowAtS", Parameters.SLOW_NETWORK_AT_S,
          "slowDurationS", Parameters.SLOW_NETWORK_DURATION_S,
          "slowExtraMs", Parameters.SLOW_NETWORK_EXTRA_MS,
          "slowdown", Parameters.CONTENTION_SLOWDOWN,
          "coTenantMemMib", Parameters.CONTENTION_MEM_MIB,
          "coTenantUtilPct", Parameters.CONTENTION_UTIL_PCT);

  /** The settings record, or null after noting why it is invalid (records validate themselves). */
  private static <T> @Nullable T build(Values read, Supplier<T> settings) {
    try {
      return settings.get();
    } catch (IllegalArgumentException e) {
      read.problem(withOption(String.valueOf(e.getMessage())));
      return null;
    }
  }

  /** Prefixes a record's message ("maxBatch must be > 0: -1") with its option ("--max-batch"). */
  private static String withOption(String message) {
    int end = 0;
    while (end < message.length() && Character.isLetter(message.charAt(end))) {
      end++;
    }
    String field = message.substring(0, end);
    String option = OPTION_OF_FIELD.get(field);
    if (option == null) {
      option = "--" + field.replaceAll("([A-Z])", "-$1").toLowerCase(Locale.ROOT);
    }
    return Parameters.defaults().containsKey(option) ? option + ": " + message : message;
  }

  private static WorkloadSettings workload(Values read) {
    return new WorkloadSettings(
        read.integer(Parameters.REQUESTS),
        read.integers(Parameters.CONCURRENCY),
        read.parse(
            Parameters.ARRIVAL,
            text -> ArrivalMode.valueOf(text.toUpperCase(Locale.ROOT)),
            ArrivalMode.CLOSED),
        read.number(Parameters.RATE),
        read.integer(Parameters.WARMUP_REQUESTS),
        read.number(Parameters.WARMUP_EXTRA_MS),
        read.distribution(Parameters.PROMPT_TOKENS),
        read.distribution(Parameters.OUTPUT_TOKENS),
        read.integer(Parameters.MAX_MODEL_LEN),
        read.number(Parameters.PHASE_GAP_S));
  }

  private static ServerSettings server(
      Values read, EngineFormat format, Map<String, String> resolved) {
    boolean chunked = read.bool(Parameters.CHUNKED_PREFILL, format.chunkedPrefill());
    boolean mixed = read.bool(Parameters.MIXED_BATCHES, format.mixedBatches());
    int blockSize =
        read.isAuto(Parameters.BLOCK_SIZE)
            ? format.blockSize()
            : read.integer(Parameters.BLOCK_SIZE);
    resolved.put(Parameters.CHUNKED_PREFILL, Boolean.toString(chunked));
    resolved.put(Parameters.MIXED_BATCHES, Boolean.toString(mixed));
    resolved.put(Parameters.BLOCK_SIZE, Integer.toString(blockSize));
    return new ServerSettings(
        read.integer(Parameters.MAX_BATCH),
        read.integer(Parameters.MAX_BATCHED_TOKENS),
        chunked,
        mixed,
        read.number(Parameters.STEP_BASE_MS),
        read.number(Parameters.STEP_PER_SEQ_MS),
        read.number(Parameters.STEP_PER_KV_KTOKEN_MS),
        read.number(Parameters.PREFILL_PER_TOKEN_MS),
        read.number(Parameters.STEP_JITTER),
        read.integer(Parameters.KV_CAPACITY_TOKENS),
        blockSize,
        read.bool(Parameters.PREFIX_CACHING, false),
        read.integer(Parameters.SHARED_PREFIX_TOKENS));
  }

  private static NetworkSettings network(Values read) {
    return new NetworkSettings(
        read.distribution(Parameters.UPLINK_MS),
        read.distribution(Parameters.DOWNLINK_MS),
        read.number(Parameters.SLOW_NETWORK_AT_S),
        read.number(Parameters.SLOW_NETWORK_DURATION_S),
        read.number(Parameters.SLOW_NETWORK_EXTRA_MS),
        optionalDistribution(read, Parameters.GATEWAY_UPLINK_MS),
        optionalDistribution(read, Parameters.GATEWAY_DOWNLINK_MS));
  }

  private static @Nullable Distribution optionalDistribution(Values read, String name) {
    return Parameters.NONE.equalsIgnoreCase(read.text(name).strip())
        ? null
        : read.distribution(name);
  }

  private static GpuSettings gpu(Values read) {
    return new GpuSettings(
        read.bool(Parameters.GPU_TELEMETRY, false),
        read.number(Parameters.CONTENTION_AT_S),
        read.number(Parameters.CONTENTION_DURATION_S),
        read.number(Parameters.CONTENTION_SLOWDOWN),
        read.number(Parameters.CONTENTION_MEM_MIB),
        read.number(Parameters.CONTENTION_UTIL_PCT),
        read.number(Parameters.METRICS_SCRAPE_S));
  }

  private static ClientSettings client(Values read) {
    ClientFormat clientFormat =
        read.parse(Parameters.CLIENT_FORMAT, ClientFormat::of, ClientFormat.CSV);
    return new ClientSettings(
        read.number(Parameters.TIMEOUT_S),
        read.integer(Parameters.RETRIES),
        read.number(Parameters.RETRY_BACKOFF_MS),
        read.number(Parameters.HEARTBEAT_S),
        read.bool(Parameters.CLIENT_COUNTS_HEARTBEATS, false),
        clientFormat.ids(),
        read.idPrefix(Parameters.ID_PREFIX),
        clientFormat != ClientFormat.CSV);
  }

  private static OutputSettings output(
      Values read, EngineFormat format, Map<String, String> resolved) {
    Instant start =
        read.isAuto(Parameters.START)
            ? format.era()
            : read.parse(Parameters.START, Instant::parse, format.era());
    boolean iterationLog = read.bool(Parameters.ITERATION_LOG, format.engine() == Engine.TRTLLM);
    resolved.put(Parameters.START, start.toString());
    resolved.put(Parameters.ITERATION_LOG, Boolean.toString(iterationLog));
    return new OutputSettings(
        format,
        start,
        read.parse(Parameters.ZONE, ZoneId::of, ZoneId.of("UTC")),
        read.bool(Parameters.REQUEST_LOGGING, true),
        iterationLog,
        read.bool(Parameters.ACCESS_LOG, true),
        read.bool(Parameters.OTLP, true),
        read.parse(Parameters.CLIENT_FORMAT, ClientFormat::of, ClientFormat.CSV),
        read.parse(Parameters.API, Api::of, Api.CHAT),
        read.integer(Parameters.MAX_LOG_LEN),
        read.integer(Parameters.TP_SIZE),
        read.bool(Parameters.LOG_MILLIS, false),
        read.bool(Parameters.CLIENT_FILE, true));
  }
}
