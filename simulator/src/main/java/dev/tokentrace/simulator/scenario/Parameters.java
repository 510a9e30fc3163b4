package dev.tokentrace.simulator.scenario;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every simulator parameter with its default and documentation, declared once; the {@code simulate}
 * command's options, the scenario presets and SOURCE.md all use these names.
 */
public final class Parameters {
  public static final String ENGINE = "--engine";
  public static final String FORMAT_VERSION = "--format-version";
  public static final String SEED = "--seed";
  public static final String START = "--start";
  public static final String ZONE = "--zone";
  public static final String REQUESTS = "--requests";
  public static final String CONCURRENCY = "--concurrency";
  public static final String ARRIVAL = "--arrival";
  public static final String RATE = "--rate";
  public static final String WARMUP_REQUESTS = "--warmup-requests";
  public static final String WARMUP_EXTRA_MS = "--warmup-extra-ms";
  public static final String PROMPT_TOKENS = "--prompt-tokens";
  public static final String OUTPUT_TOKENS = "--output-tokens";
  public static final String MAX_MODEL_LEN = "--max-model-len";
  public static final String PHASE_GAP_S = "--phase-gap-s";
  public static final String MAX_BATCH = "--max-batch";
  public static final String MAX_BATCHED_TOKENS = "--max-batched-tokens";
  public static final String CHUNKED_PREFILL = "--chunked-prefill";
  public static final String MIXED_BATCHES = "--mixed-batches";
  public static final String STEP_BASE_MS = "--step-base-ms";
  public static final String STEP_PER_SEQ_MS = "--step-per-seq-ms";
  public static final String STEP_PER_KV_KTOKEN_MS = "--step-per-kv-ktoken-ms";
  public static final String PREFILL_PER_TOKEN_MS = "--prefill-per-token-ms";
  public static final String STEP_JITTER = "--step-jitter";
  public static final String KV_CAPACITY_TOKENS = "--kv-capacity-tokens";
  public static final String BLOCK_SIZE = "--block-size";
  public static final String PREFIX_CACHING = "--prefix-caching";
  public static final String SHARED_PREFIX_TOKENS = "--shared-prefix-tokens";
  public static final String UPLINK_MS = "--uplink-ms";
  public static final String DOWNLINK_MS = "--downlink-ms";
  public static final String GATEWAY_UPLINK_MS = "--gateway-uplink-ms";
  public static final String GATEWAY_DOWNLINK_MS = "--gateway-downlink-ms";
  public static final String CLIENT_FILE = "--client-file";
  public static final String SLOW_NETWORK_AT_S = "--slow-network-at-s";
  public static final String SLOW_NETWORK_DURATION_S = "--slow-network-duration-s";
  public static final String SLOW_NETWORK_EXTRA_MS = "--slow-network-extra-ms";
  public static final String TIMEOUT_S = "--timeout-s";
  public static final String RETRIES = "--retries";
  public static final String RETRY_BACKOFF_MS = "--retry-backoff-ms";
  public static final String HEARTBEAT_S = "--heartbeat-s";
  public static final String CLIENT_COUNTS_HEARTBEATS = "--client-counts-heartbeats";
  public static final String CLIENT_FORMAT = "--client-format";
  public static final String ID_PREFIX = "--id-prefix";
  public static final String API = "--api";
  public static final String REQUEST_LOGGING = "--request-logging";
  public static final String ITERATION_LOG = "--iteration-log";
  public static final String ACCESS_LOG = "--access-log";
  public static final String OTLP = "--otlp";
  public static final String MAX_LOG_LEN = "--max-log-len";
  public static final String TP_SIZE = "--tp-size";
  public static final String LOG_MILLIS = "--log-millis";
  public static final String GPU_TELEMETRY = "--gpu-telemetry";
  public static final String CONTENTION_AT_S = "--contention-at-s";
  public static final String CONTENTION_DURATION_S = "--contention-duration-s";
  public static final String CONTENTION_SLOWDOWN = "--contention-slowdown";
  public static final String CONTENTION_MEM_MIB = "--contention-mem-mib";
  public static final String CONTENTION_UTIL_PCT = "--contention-util-pct";
  public static final String METRICS_SCRAPE_S = "--metrics-scrape-s";

  /** The value of a distribution that is not there (no gateway). */
  public static final String NONE = "none";

  /** The value that lets engine and format generation choose. */
  public static final String AUTO = "auto";

  private static final List<Parameter> ALL =
      List.of(
          p(ENGINE, "ENGINE", "vllm", "Engine whose outputs are written: vllm, sglang or trtllm."),
          p(
              FORMAT_VERSION,
              "VERSION",
              AUTO,
              "Format generation: vllm 0.7 (V0), 0.11 or 0.16 (V1); sglang 0.4.5 or 0.5.6;"
                  + " trtllm 1.1. auto = the newest."),
          p(
              SEED,
              "N",
              "42",
              "Random seed; the same seed and parameters give byte-identical files."),
          p(
              START,
              "INSTANT",
              AUTO,
              "Wall-clock time of the run's start, ISO-8601 (2026-03-02T09:00:00Z). auto = a date"
                  + " in the format generation's period."),
          p(ZONE, "ZONE", "UTC", "Time zone of the engine's local-time log timestamps."),
          p(REQUESTS, "N", "200", "Client requests per concurrency level (warm-up ones included)."),
          p(
              CONCURRENCY,
              "C[,C...]",
              "1",
              "Concurrency levels, one phase each, run back to back (1,4,8,16 is the seed's sweep):"
                  + " closed-loop workers, or the client semaphore with poisson arrivals (0 ="
                  + " unbounded)."),
          p(
              ARRIVAL,
              "MODE",
              "closed",
              "closed: each worker sends its next request when one finishes; poisson: open loop"
                  + " at --rate, waiting for the client semaphore (client queue)."),
          p(RATE, "REQ_PER_S", "4.0", "Poisson arrival rate (requests per second)."),
          p(
              WARMUP_REQUESTS,
              "N",
              "0",
              "The run's first N requests are warm-up: marked in the client file and truth."),
          p(
              WARMUP_EXTRA_MS,
              "MS",
              "800",
              "Extra duration of each engine step that starts a warm-up request's prefill."),
          p(
              PROMPT_TOKENS,
              "DIST",
              "lognormal:512,0.5",
              "Prompt length: fixed:N, uniform:MIN,MAX, lognormal:MEDIAN,SIGMA or choice:A,B,..."),
          p(
              OUTPUT_TOKENS,
              "DIST",
              "lognormal:256,0.6",
              "Output length (the request stops at exactly this many tokens), e.g. choice:64,512,2048."),
          p(MAX_MODEL_LEN, "TOKENS", "32768", "Prompt plus output never exceed this."),
          p(PHASE_GAP_S, "S", "5", "Idle seconds between concurrency levels."),
          p(MAX_BATCH, "N", "256", "Most requests running at once (vLLM max_num_seqs)."),
          p(
              MAX_BATCHED_TOKENS,
              "TOKENS",
              "8192",
              "Token budget of one engine step (max_num_batched_tokens / chunked_prefill_size)."),
          p(
              CHUNKED_PREFILL,
              "BOOL",
              AUTO,
              "Split long prompts over steps. auto: vLLM V1 and SGLang yes; vLLM 0.7 and"
                  + " TensorRT-LLM no."),
          p(
              MIXED_BATCHES,
              "BOOL",
              AUTO,
              "Decodes and prefill chunks share a step. auto: vLLM V1 and TensorRT-LLM yes; SGLang"
                  + " and vLLM 0.7 run prefill steps alone, first."),
          p(
              STEP_BASE_MS,
              "MS",
              "8.0",
              "Fixed cost of one engine step (weights read once per step)."),
          p(STEP_PER_SEQ_MS, "MS", "0.06", "Step cost per sequence in the batch."),
          p(
              STEP_PER_KV_KTOKEN_MS,
              "MS",
              "0.06",
              "Step cost per 1000 context tokens attended (KV cache read; makes decode"
                  + " memory-bandwidth bound)."),
          p(PREFILL_PER_TOKEN_MS, "MS", "0.05", "Step cost per prompt token computed."),
          p(STEP_JITTER, "FRACTION", "0.02", "Uniform random jitter of every step's duration, +-."),
          p(
              KV_CAPACITY_TOKENS,
              "TOKENS",
              "400000",
              "KV cache size; when full the newest running request is preempted and recomputed."),
          p(
              BLOCK_SIZE,
              "TOKENS",
              AUTO,
              "KV cache block size. auto: vLLM 16, SGLang 1, TensorRT-LLM 32."),
          p(
              PREFIX_CACHING,
              "BOOL",
              "false",
              "Reuse the KV of the prompt prefix all requests share."),
          p(
              SHARED_PREFIX_TOKENS,
              "TOKENS",
              "0",
              "Length of the prefix (system prompt) every prompt starts with."),
          p(
              UPLINK_MS,
              "DIST",
              "lognormal:1.5,0.3",
              "One-way client-to-server delay per request (ms)."),
          p(
              DOWNLINK_MS,
              "DIST",
              "lognormal:1.5,0.3",
              "One-way server-to-client delay per request (ms)."),
          p(
              GATEWAY_UPLINK_MS,
              "DIST",
              NONE,
              "A gateway (NGINX, Envoy) between client and server: its one-way delay to the server"
                  + " per request (ms); --uplink-ms is then the client-to-gateway leg. Writes the"
                  + " gateway's access logs, a JMeter JTL, wrk rows and gateway_truth.csv."
                  + " none = no gateway."),
          p(
              GATEWAY_DOWNLINK_MS,
              "DIST",
              NONE,
              "The gateway's one-way delay from the server per request (ms); set with"
                  + " --gateway-uplink-ms."),
          p(
              CLIENT_FILE,
              "BOOL",
              "true",
              "Write the client's files; false: production, only the gateway saw the requests"
                  + " (needs a gateway)."),
          p(
              SLOW_NETWORK_AT_S,
              "S",
              "-1",
              "Start of a slow-network episode, seconds after the run starts (-1 = none)."),
          p(SLOW_NETWORK_DURATION_S, "S", "60", "Length of the slow-network episode."),
          p(
              SLOW_NETWORK_EXTRA_MS,
              "MS",
              "0",
              "Delay added to every message sent during the slow-network episode."),
          p(
              TIMEOUT_S,
              "S",
              "0",
              "The client gives up on an attempt after this long (0 = never); the server aborts it."),
          p(
              RETRIES,
              "N",
              "0",
              "Retries of a timed-out request; a retry reuses the ID, so the server sees it twice."),
          p(RETRY_BACKOFF_MS, "MS", "100", "Pause before a retry."),
          p(
              HEARTBEAT_S,
              "S",
              "0",
              "A proxy sends an SSE comment every S seconds until the first token (0 = none)."),
          p(
              CLIENT_COUNTS_HEARTBEATS,
              "BOOL",
              "false",
              "The client counts heartbeats as tokens: its TTFT and token count are wrong."),
          p(
              CLIENT_FORMAT,
              "FORMAT",
              "csv",
              "Client file besides our CSV: csv (none), aiperf, vllm-bench, guidellm, genai-perf."
                  + " It also decides the request IDs."),
          p(
              ID_PREFIX,
              "PREFIX",
              AUTO,
              "Request ID prefix (prefix + global index). auto: bench-<8 hex>- per level + index."),
          p(API, "API", "chat", "Endpoint: chat (/v1/chat/completions) or completions."),
          p(
              REQUEST_LOGGING,
              "BOOL",
              "true",
              "Per-request log lines (vLLM --enable-log-requests, SGLang --log-requests)."),
          p(
              ITERATION_LOG,
              "BOOL",
              AUTO,
              "Per-step lines: vLLM 0.16 Iteration(i) (--enable-logging-iteration-details),"
                  + " TensorRT-LLM print_iter_log. auto: TensorRT-LLM yes, vLLM no."),
          p(ACCESS_LOG, "BOOL", "true", "uvicorn HTTP access lines."),
          p(OTLP, "BOOL", "true", "vLLM: write the OTLP trace export otlp.jsonl."),
          p(
              MAX_LOG_LEN,
              "N",
              "16",
              "vLLM --max-log-len: prompt characters and token IDs per request line (0 = all)."),
          p(TP_SIZE, "N", "1", "Tensor-parallel size (SGLang rank tags such as TP0)."),
          p(
              LOG_MILLIS,
              "BOOL",
              "false",
              "SGLang 0.5.6: SGLANG_LOG_MS=1, milliseconds in the log prefix."),
          p(
              GPU_TELEMETRY,
              "BOOL",
              "false",
              "Write the engine's GPU telemetry under gpu/: nvidia-smi --query-gpu CSV (looped,"
                  + " -lms 500), dmon and pmon (-o DT), --query-compute-apps CSV and DCGM exporter"
                  + " text; utilisation follows the engine's steps, memory its KV cache use."),
          p(
              CONTENTION_AT_S,
              "S",
              "-1",
              "Another process (a co-tenant) takes a share of the GPU from S seconds after the"
                  + " run starts (-1 = none): engine steps slow by --contention-slowdown, and"
                  + " gpu_truth.csv marks the requests it hit."),
          p(CONTENTION_DURATION_S, "S", "30", "How long the co-tenant holds the GPU."),
          p(
              CONTENTION_SLOWDOWN,
              "FACTOR",
              "2.0",
              "Engine steps that start while the co-tenant runs last this many times longer."),
          p(CONTENTION_MEM_MIB, "MIB", "12000", "GPU memory the co-tenant holds."),
          p(
              CONTENTION_UTIL_PCT,
              "PCT",
              "60",
              "Share of each sample period in which the co-tenant's kernels run."),
          p(
              METRICS_SCRAPE_S,
              "S",
              "0",
              "Save the engine's /metrics (the text simulate --serve serves, its real metric"
                  + " names) every S seconds of the run into metrics.prom, as tokentrace scrape"
                  + " --out saves it (0 = none)."));

  private Parameters() {}

  private static Parameter p(String name, String label, String defaultValue, String description) {
    return new Parameter(name, label, defaultValue, description);
  }

  /** Every parameter, in help order. */
  public static List<Parameter> all() {
    return ALL;
  }

  /** Name to default value, in help order. */
  public static Map<String, String> defaults() {
    Map<String, String> values = new LinkedHashMap<>();
    for (Parameter parameter : ALL) {
      values.put(parameter.name(), parameter.defaultValue());
    }
    return values;
  }
}
