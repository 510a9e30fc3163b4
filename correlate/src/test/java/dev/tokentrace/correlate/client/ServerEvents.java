package dev.tokentrace.correlate.client;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.RequestAborted;
import dev.tokentrace.event.RequestArrived;
import dev.tokentrace.event.RequestTiming;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.parse.LineParser;
import dev.tokentrace.parse.ParseOutput;
import dev.tokentrace.parse.ParseSettings;
import dev.tokentrace.parse.Parsers;
import dev.tokentrace.parse.Rejection;
import dev.tokentrace.store.Database;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Server-side rows for join tests, made by the real vLLM parser from log lines we compose (so the
 * request keys are exactly what ingestion would store), inserted as the DuckDB sink writes them.
 */
final class ServerEvents {
  private ServerEvents() {}

  /** The events the vLLM parser makes of {@code lines} (one source, instance gpu-0, year 2026). */
  static List<EngineEvent> parseVllm(String... lines) {
    LineParser parser = Parsers.create(Engine.VLLM, ParseSettings.of("gpu-0", 2026));
    List<EngineEvent> events = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    ParseOutput sink =
        new ParseOutput() {
          @Override
          public void event(EngineEvent event) {
            events.add(event);
          }

          @Override
          public void ignored(SourcePosition position, String rule) {}

          @Override
          public void rejected(Rejection rejection) {
            problems.add(rejection.message());
          }
        };
    long line = 0;
    for (String text : lines) {
      parser.parse(text, new SourcePosition("server.log", ++line, 0), sink);
    }
    parser.finish(sink);
    if (!problems.isEmpty()) {
      throw new AssertionError("test log lines rejected: " + problems);
    }
    return events;
  }

  /** Inserts the request events (arrived, timing, aborted) into their tables. */
  static void insert(Database database, List<EngineEvent> events) {
    database
        .jdbi()
        .useHandle(
            handle -> {
              for (EngineEvent event : events) {
                if (event instanceof RequestArrived) {
                  RequestArrived arrived = (RequestArrived) event;
                  handle.execute(
                      "INSERT INTO request_arrived VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                      arrived.engine().id(),
                      arrived.instance(),
                      utc(arrived.ts()),
                      arrived.source().path(),
                      arrived.source().line(),
                      arrived.source().offset(),
                      arrived.requestId(),
                      arrived.requestKey(),
                      arrived.promptTokens(),
                      arrived.maxTokens());
                } else if (event instanceof RequestTiming) {
                  RequestTiming t = (RequestTiming) event;
                  handle.execute(
                      "INSERT INTO request_timing VALUES"
                          + " (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                      t.engine().id(),
                      t.instance(),
                      utc(t.ts()),
                      t.source().path(),
                      t.source().line(),
                      t.source().offset(),
                      t.requestId(),
                      t.requestKey(),
                      utc(t.arrivalTs()),
                      t.queueMs(),
                      t.prefillMs(),
                      t.decodeMs(),
                      t.serverTtftMs(),
                      t.e2eMs(),
                      t.promptTokens(),
                      t.outputTokens(),
                      t.cachedTokens(),
                      t.finishReason(),
                      t.sourceKind(),
                      t.arrivalMonoS());
                } else if (event instanceof RequestAborted) {
                  RequestAborted aborted = (RequestAborted) event;
                  handle.execute(
                      "INSERT INTO request_aborted VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                      aborted.engine().id(),
                      aborted.instance(),
                      utc(aborted.ts()),
                      aborted.source().path(),
                      aborted.source().line(),
                      aborted.source().offset(),
                      aborted.requestId(),
                      aborted.requestKey(),
                      aborted.reason());
                }
              }
            });
  }

  private static @Nullable LocalDateTime utc(@Nullable Instant instant) {
    return instant == null ? null : LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
  }

  /**
   * A vLLM V1 {@code Received request} line (docs/formats/vllm.md#request-lines), logged at
   * 12:00:00.
   */
  static String received(String id) {
    return "(APIServer pid=3646) INFO 03-01 12:00:00 [logger.py:43] Received request "
        + id
        + ": params: SamplingParams(n=1, max_tokens=64), prompt_token_ids: [1, 2, 3],"
        + " lora_request: None.";
  }

  /** An engine-side abort line with the ID as the engine has it. */
  static String aborted(String engineId) {
    return "(APIServer pid=3646) INFO 03-01 12:00:01 [async_llm.py:430] Aborted request "
        + engineId
        + ".";
  }

  /**
   * An OpenTelemetry Collector file-export line with one vLLM V1 {@code llm_request} span
   * (docs/formats/vllm.md#otlp-spans, docs/formats/vllm.md#otlp-json-export), arrival
   * 2026-03-01T12:00:00.100Z; durations in seconds.
   */
  static String span(String requestId, int outputTokens) {
    String attributes =
        attribute("gen_ai.latency.time_in_queue", "{\"doubleValue\":0.002}")
            + ","
            + attribute("gen_ai.latency.time_to_first_token", "{\"doubleValue\":0.05}")
            + ","
            + attribute("gen_ai.latency.e2e", "{\"doubleValue\":0.8}")
            + ","
            + attribute("gen_ai.latency.time_in_model_prefill", "{\"doubleValue\":0.04}")
            + ","
            + attribute("gen_ai.latency.time_in_model_decode", "{\"doubleValue\":0.7}")
            + ","
            + attribute("gen_ai.usage.prompt_tokens", "{\"intValue\":\"3\"}")
            + ","
            + attribute("gen_ai.usage.completion_tokens", "{\"intValue\":\"" + outputTokens + "\"}")
            + ","
            + attribute("gen_ai.request.id", "{\"stringValue\":\"" + requestId + "\"}");
    return "{\"resourceSpans\":[{\"resource\":{\"attributes\":[{\"key\":\"service.name\","
        + "\"value\":{\"stringValue\":\"vllm-server\"}}]},\"scopeSpans\":[{\"scope\":"
        + "{\"name\":\"vllm.tracing.otel\"},\"spans\":[{\"traceId\":\"5b8efff798038103d269b633813fc60c\","
        + "\"spanId\":\"eee19b7ec3c1b174\",\"name\":\"llm_request\",\"kind\":2,"
        + "\"startTimeUnixNano\":\"1772366400100000000\",\"endTimeUnixNano\":\"1772366400900000000\","
        + "\"attributes\":["
        + attributes
        + "],\"status\":{}}]}]}]}";
  }

  private static String attribute(String key, String value) {
    return "{\"key\":\"" + key + "\",\"value\":" + value + "}";
  }
}
