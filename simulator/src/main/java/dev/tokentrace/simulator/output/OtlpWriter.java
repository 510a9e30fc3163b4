package dev.tokentrace.simulator.output;

import dev.tokentrace.simulator.Ids;
import dev.tokentrace.simulator.RequestView;
import dev.tokentrace.simulator.ServerView;
import dev.tokentrace.simulator.SimObserver;
import java.io.Closeable;

/**
 * vLLM's request spans as an OpenTelemetry Collector file exporter writes them ({@code otlp.jsonl},
 * docs/formats/vllm.md#otlp-spans, docs/formats/vllm.md#otlp-json-export): one {@code TracesData}
 * JSON object per line, one line per export of the SDK's BatchSpanProcessor (every 5 s, or at 512
 * queued spans). IDs are hex, enums integers, 64-bit integers decimal strings, latencies seconds.
 * One {@code llm_request} span (kind SERVER) per finished request, from arrival to the last token;
 * aborted requests have none.
 */
final class OtlpWriter implements SimObserver, Closeable {
  private static final long SCHEDULE_DELAY_US = 5_000_000; // OTEL_BSP_SCHEDULE_DELAY default
  private static final int MAX_EXPORT_BATCH = 512; // OTEL_BSP_MAX_EXPORT_BATCH_SIZE default

  private final TextFile out;
  private final OutputSettings output;
  private final EngineFormat format;
  private final WallClock clock;
  private final String head;
  private final StringBuilder pending = new StringBuilder(1 << 16);
  private int pendingSpans;
  private long nextExportUs = SCHEDULE_DELAY_US;

  OtlpWriter(TextFile out, OutputSettings output, long seed) {
    this.out = out;
    this.output = output;
    this.format = output.format();
    this.clock = new WallClock(output.start(), output.zone());
    this.head = head(format, Pids.api(seed));
  }

  private static String head(EngineFormat format, long pid) {
    StringBuilder text = new StringBuilder("{\"resourceSpans\":[{\"resource\":{\"attributes\":[");
    text.append(string("telemetry.sdk.language", "python")).append(',');
    text.append(string("telemetry.sdk.name", "opentelemetry")).append(',');
    text.append(string("telemetry.sdk.version", "1.33.1")).append(',');
    if (format == EngineFormat.VLLM_0_16) {
      // 325ab6b0a (2026-02-06, #31162, v0.16.0): vllm.* resource attributes, new scope
      // (docs/formats/vllm.md#otlp-spans)
      text.append(string("vllm.instrumenting_module_name", "vllm.llm_engine")).append(',');
      text.append(string("vllm.process_id", Long.toString(pid))).append(',');
    }
    text.append(string("service.name", "vllm-server")).append("]},\"scopeSpans\":[{\"scope\":");
    text.append("{\"name\":\"");
    text.append(format == EngineFormat.VLLM_0_16 ? "vllm.tracing.otel" : "vllm.llm_engine");
    return text.append("\"},\"spans\":[").toString();
  }

  @Override
  public void advance(long nowUs, ServerView server) {
    while (nextExportUs < nowUs) {
      export();
      nextExportUs += SCHEDULE_DELAY_US;
    }
  }

  @Override
  public void serverFinished(RequestView request, ServerView server) {
    if (pendingSpans > 0) {
      pending.append(',');
    }
    span(pending, request);
    if (++pendingSpans == MAX_EXPORT_BATCH) {
      export();
    }
  }

  @Override
  public void finished(ServerView server) {
    export();
  }

  private void export() {
    if (pendingSpans == 0) {
      return;
    }
    StringBuilder line = out.begin();
    line.append(head).append(pending).append("]}]}]}");
    out.end();
    pending.setLength(0);
    pendingSpans = 0;
  }

  private void span(StringBuilder json, RequestView request) {
    long nonce = request.nonce();
    json.append("{\"traceId\":\"");
    json.append(Ids.hex32(Ids.mix(nonce ^ 0x7ace1dL), Ids.mix(nonce ^ 0x7ace2dL)));
    json.append("\",\"spanId\":\"").append(Ids.hex(Ids.mix(nonce ^ 0x5ba41dL), 16));
    json.append("\",\"name\":\"llm_request\",\"kind\":2,\"startTimeUnixNano\":\"");
    json.append(clock.epochUs(request.serverArrivalUs())).append("000\",\"endTimeUnixNano\":\"");
    json.append(clock.epochUs(request.lastTokenUs())).append("000\",\"attributes\":[");
    if (format == EngineFormat.VLLM_0_7) {
      v0Attributes(json, request);
    } else {
      v1Attributes(json, request);
    }
    json.append("],\"status\":{}}");
  }

  /**
   * V1 (40b6c9122, 2025-09-12): queue, TTFT, e2e, prefill, decode, inference
   * (docs/formats/vllm.md#otlp-spans).
   */
  private void v1Attributes(StringBuilder json, RequestView request) {
    long arrival = request.serverArrivalUs();
    seconds(json, "gen_ai.latency.time_to_first_token", request.firstTokenUs() - arrival);
    seconds(json, "gen_ai.latency.e2e", request.lastTokenUs() - arrival);
    seconds(json, "gen_ai.latency.time_in_queue", request.firstScheduledUs() - arrival);
    integer(json, "gen_ai.usage.prompt_tokens", request.promptTokens());
    integer(json, "gen_ai.usage.completion_tokens", request.generatedTokens());
    seconds(
        json,
        "gen_ai.latency.time_in_model_prefill",
        request.firstTokenUs() - request.firstScheduledUs());
    seconds(
        json,
        "gen_ai.latency.time_in_model_decode",
        request.lastTokenUs() - request.firstTokenUs());
    seconds(
        json,
        "gen_ai.latency.time_in_model_inference",
        request.lastTokenUs() - request.firstScheduledUs());
    json.append(string("gen_ai.request.id", ServerIds.vllmExternal(request, format, output.api())));
    // V1 sets request parameters only when truthy: temperature 0 is omitted
    // (docs/formats/vllm.md#otlp-spans)
    json.append(",{\"key\":\"gen_ai.request.top_p\",\"value\":{\"doubleValue\":1.0}},");
    integer(json, "gen_ai.request.max_tokens", request.outputTokens());
    json.append("{\"key\":\"gen_ai.request.n\",\"value\":{\"intValue\":\"1\"}}");
  }

  /** V0 (7879f24dc, 933790c20): queue, TTFT, e2e and scheduler time, no prefill/decode split. */
  private void v0Attributes(StringBuilder json, RequestView request) {
    long arrival = request.serverArrivalUs();
    json.append(string("gen_ai.response.model", "/models/Llama-3.1-8B-Instruct")).append(',');
    json.append(string("gen_ai.request.id", ServerIds.vllmExternal(request, format, output.api())));
    json.append(",{\"key\":\"gen_ai.request.temperature\",\"value\":{\"doubleValue\":0.0}},");
    json.append("{\"key\":\"gen_ai.request.top_p\",\"value\":{\"doubleValue\":1.0}},");
    integer(json, "gen_ai.request.max_tokens", request.outputTokens());
    integer(json, "gen_ai.request.n", 1);
    integer(json, "gen_ai.usage.num_sequences", 1);
    integer(json, "gen_ai.usage.prompt_tokens", request.promptTokens());
    integer(json, "gen_ai.usage.completion_tokens", request.generatedTokens());
    seconds(json, "gen_ai.latency.time_in_queue", request.firstScheduledUs() - arrival);
    seconds(json, "gen_ai.latency.time_to_first_token", request.firstTokenUs() - arrival);
    seconds(json, "gen_ai.latency.e2e", request.lastTokenUs() - arrival);
    // the V0 scheduler adds each step's scheduling time to every running request
    // (docs/formats/vllm.md#otlp-spans)
    long schedulerUs = 40L * (request.generatedTokens() + 1);
    json.append("{\"key\":\"gen_ai.latency.time_in_scheduler\",\"value\":{\"doubleValue\":");
    Decimals.seconds(json, schedulerUs).append("}}");
  }

  private static void seconds(StringBuilder json, String key, long us) {
    json.append("{\"key\":\"").append(key).append("\",\"value\":{\"doubleValue\":");
    Decimals.seconds(json, us).append("}},");
  }

  private static void integer(StringBuilder json, String key, long value) {
    json.append("{\"key\":\"").append(key).append("\",\"value\":{\"intValue\":\"");
    json.append(value).append("\"}},");
  }

  private static String string(String key, String value) {
    return "{\"key\":\"" + key + "\",\"value\":{\"stringValue\":\"" + value + "\"}}";
  }

  @Override
  public void close() {
    out.close();
  }
}
