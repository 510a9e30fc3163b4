package dev.tokentrace.parse.trtllm;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tokentrace.event.Engine;
import dev.tokentrace.event.KvTransfer;
import dev.tokentrace.event.RequestKeys;
import dev.tokentrace.event.RequestTiming;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.parse.ParseOutput;
import dev.tokentrace.parse.Rejection;
import org.jspecify.annotations.Nullable;

/**
 * Per-request perf metrics → {@code request_timing} (docs/formats/trtllm.md#perf-metrics):
 *
 * <ul>
 *   <li>a trtllm-serve {@code /perf_metrics} item {@code {request_id, perf_metrics:
 *       {timing_metrics: {...}}}} ({@code openai_server.py @ e7f7345}), source kind {@value
 *       #PERF_METRICS};
 *   <li>a disaggregated-server item {@code {ctx_perf_metrics, gen_perf_metrics,
 *       disagg_server_arrival_time, disagg_server_first_token_time}}, same kind;
 *   <li>a {@code TRTLLM_PERF_TIME_EVENTS_PATH} record {@code {request_id, rank, ctx_request_id,
 *       time_breakdown_metrics, request_timing_metrics}} (PerfMetricsManager, PR #16900), kind
 *       {@value #TIME_EVENTS}.
 * </ul>
 *
 * <p>All times are seconds on the server's steady clock, so only durations are produced; {@code ts}
 * and {@code arrival_ts} stay null until the correlate stage knows an offset. Durations use the
 * engine's own definitions ({@code perf_utils.py @ 4bc58bc}): queue = first_scheduled − arrival,
 * prefill = first_token − first_scheduled, decode = last_token − first_token, server TTFT =
 * first_token − arrival, e2e = last_token − arrival. {@code arrival_time} is the LLM-API arrival
 * (after HTTP parsing and tokenization since PR #7553), so server preprocessing ({@code
 * server_arrival_time} → {@code arrival_time}) is not in any component and shows up as network in
 * the attribution. A time ≤ 0 is an unset C++ time point and reads as absent.
 *
 * <p>Disaggregated serving (docs/formats/pd.md#tensorrt-llm): an item with {@code ctx_request_id}
 * is one half of a request served by a context and a generation server; its {@code request_key} is
 * the context request id, which both halves carry, so that the attribution joins them. Its {@code
 * kv_cache_transfer_start}/{@code kv_cache_transfer_end} become a {@code kv_transfer} row of that
 * request (transfers 1, source kind {@value #PERF_METRICS}).
 */
final class PerfMetricsMapper {
  static final String PERF_METRICS = "perf_metrics";
  static final String TIME_EVENTS = "perf_time_events";
  static final String NO_TIMING_RULE = "trtllm: time events record without timing";
  static final String NO_DURATION_RULE = "trtllm: perf metrics without durations";

  private final String instance;
  private final TimeBreakdownSteps steps;

  PerfMetricsMapper(String instance) {
    this.instance = instance;
    this.steps = new TimeBreakdownSteps(instance);
  }

  static boolean acceptsItem(JsonNode node) {
    return node.has("perf_metrics") && node.has("request_id");
  }

  static boolean acceptsDisagg(JsonNode node) {
    return node.has("ctx_perf_metrics") || node.has("gen_perf_metrics");
  }

  static boolean acceptsTimeEvents(JsonNode node) {
    return node.has("request_id")
        && (node.has("time_breakdown_metrics") || node.has("request_timing_metrics"));
  }

  void item(JsonNode item, SourcePosition source, ParseOutput sink, String json) {
    String id = JsonFields.id(item, "request_id");
    String ctxId = JsonFields.id(item, "ctx_request_id");
    JsonNode metrics = timingMetrics(item);
    Timing timing = Timing.of(metrics);
    // the HTTP server's arrival is the one nearest the client's send
    // (docs/formats/trtllm.md#perf-metrics)
    Double serverArrival = metrics == null ? null : Timing.time(metrics, "server_arrival_time");
    int emitted = steps.emit(JsonFields.object(item, "time_breakdown_metrics"), null, source, sink);
    if (id == null) {
      reject(sink, source, "perf metrics: missing 'request_id'", json);
    } else if (timing.hasDuration()) {
      String key = RequestKeys.normalize(ctxId != null ? ctxId : id);
      sink.event(event(id, key, source, timing, PERF_METRICS, serverArrival));
      if (ctxId != null && metrics != null) {
        transfer(ctxId, metrics, timing, source, sink);
      }
    } else if (emitted == 0) {
      noDurations(timing.isEmpty(), source, sink, json);
    }
  }

  /**
   * The request's own KV transfer (docs/formats/pd.md#tensorrt-llm): end − start, the size in MB
   * (2^20 bytes) and its rate. The side is the generation server's when it made more than the one
   * token a context server answers with (first token before last), else the context server's.
   */
  private void transfer(
      String ctxId, JsonNode metrics, Timing timing, SourcePosition source, ParseOutput sink) {
    Double duration =
        Timing.ms(
            Timing.time(metrics, "kv_cache_transfer_start"),
            Timing.time(metrics, "kv_cache_transfer_end"));
    if (duration == null || duration < 0) {
      return; // no transfer timed on this server: a context half, or a request served alone
    }
    Double bytes = JsonFields.nonNegative(metrics, "kv_cache_size");
    Double mb = bytes == null || bytes == 0 ? null : bytes / (1 << 20);
    Double rate = mb == null || duration == 0 ? null : mb / (duration / 1000);
    boolean decode =
        timing.firstToken() != null
            && timing.lastToken() != null
            && timing.lastToken() > timing.firstToken();
    sink.event(
        new KvTransfer(
            Engine.TRTLLM,
            instance,
            null,
            source,
            ctxId,
            RequestKeys.normalize(ctxId),
            decode ? "decode" : "prefill",
            null,
            null,
            1,
            duration,
            null,
            mb,
            rate,
            null,
            null,
            PERF_METRICS));
  }

  /** No times at all is a broken item; some times but no pair (cancelled while queued) is not. */
  private static void noDurations(
      boolean empty, SourcePosition source, ParseOutput sink, String json) {
    if (empty) {
      reject(sink, source, "perf metrics: no timing metrics", json);
    } else {
      sink.ignored(source, NO_DURATION_RULE);
    }
  }

  /**
   * Disaggregated serving: queue and prefill from the context server, decode from the generation
   * server, server TTFT from the disaggregated server's own clock; e2e spans three servers' clocks
   * and stays null. The id is the one both servers share: {@code disagg_request_id} when written,
   * else {@code ctx_request_id}, else a worker's {@code request_id}.
   */
  void disagg(JsonNode record, SourcePosition source, ParseOutput sink, String json) {
    JsonNode ctx = JsonFields.object(record, "ctx_perf_metrics");
    JsonNode gen = JsonFields.object(record, "gen_perf_metrics");
    String id = disaggId(record, ctx, gen);
    Timing context = Timing.of(ctx == null ? null : timingMetrics(ctx));
    Timing generation = Timing.of(gen == null ? null : timingMetrics(gen));
    Double ttft =
        Timing.ms(
            Timing.time(record, "disagg_server_arrival_time"),
            Timing.time(record, "disagg_server_first_token_time"));
    int emitted = 0;
    if (ctx != null) {
      emitted += steps.emit(JsonFields.object(ctx, "time_breakdown_metrics"), null, source, sink);
    }
    if (gen != null) {
      emitted += steps.emit(JsonFields.object(gen, "time_breakdown_metrics"), null, source, sink);
    }
    Double queue = context.queueMs();
    Double prefill = context.prefillMs();
    Double decode = generation.decodeMs();
    if (id == null) {
      reject(sink, source, "perf metrics: missing 'request_id'", json);
    } else if (queue != null || prefill != null || decode != null || ttft != null) {
      sink.event(
          new RequestTiming(
              Engine.TRTLLM,
              instance,
              null,
              source,
              id,
              RequestKeys.normalize(id),
              null,
              queue,
              prefill,
              decode,
              ttft,
              null,
              null,
              null,
              null,
              null,
              PERF_METRICS));
    } else if (emitted == 0) {
      noDurations(context.isEmpty() && generation.isEmpty(), source, sink, json);
    }
  }

  void timeEvents(JsonNode record, SourcePosition source, ParseOutput sink, String json) {
    String id = JsonFields.id(record, "request_id");
    Integer rank = JsonFields.count(record, "rank");
    Timing timing = Timing.of(JsonFields.object(record, "request_timing_metrics"));
    int emitted =
        steps.emit(JsonFields.object(record, "time_breakdown_metrics"), rank, source, sink);
    if (id == null) {
      reject(sink, source, "time events: missing 'request_id'", json);
    } else if (timing.hasDuration()) {
      sink.event(event(id, RequestKeys.normalize(id), source, timing, TIME_EVENTS, null));
    } else if (emitted == 0) {
      // a raw LLM-API run without return_perf_metrics writes no lifecycle times (PR #16900)
      sink.ignored(source, timing.isEmpty() ? NO_TIMING_RULE : NO_DURATION_RULE);
    }
  }

  /**
   * {@code arrivalMonoS} is the server's steady-clock arrival: HTTP arrival, else engine arrival.
   */
  private RequestTiming event(
      String id,
      String key,
      SourcePosition source,
      Timing timing,
      String kind,
      @Nullable Double serverArrival) {
    return new RequestTiming(
        Engine.TRTLLM,
        instance,
        null,
        source,
        id,
        key,
        null,
        timing.queueMs(),
        timing.prefillMs(),
        timing.decodeMs(),
        timing.ttftMs(),
        timing.e2eMs(),
        null,
        null,
        null,
        null,
        kind,
        serverArrival != null ? serverArrival : timing.arrival());
  }

  private static @Nullable JsonNode timingMetrics(JsonNode item) {
    JsonNode perf = JsonFields.object(item, "perf_metrics");
    return perf == null ? null : JsonFields.object(perf, "timing_metrics");
  }

  private static @Nullable String disaggId(
      JsonNode record, @Nullable JsonNode ctx, @Nullable JsonNode gen) {
    String id = JsonFields.id(record, "disagg_request_id");
    if (id == null && ctx != null) {
      id = JsonFields.id(ctx, "ctx_request_id");
    }
    if (id == null && gen != null) {
      id = JsonFields.id(gen, "ctx_request_id");
    }
    if (id == null && ctx != null) {
      id = JsonFields.id(ctx, "request_id");
    }
    if (id == null && gen != null) {
      id = JsonFields.id(gen, "request_id");
    }
    return id;
  }

  private static void reject(ParseOutput sink, SourcePosition source, String reason, String json) {
    sink.rejected(Rejection.of(source, Engine.TRTLLM, reason, json));
  }
}
