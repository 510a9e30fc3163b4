package dev.tokentrace.parse.trtllm;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.tokentrace.event.Engine;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.parse.ParseSink;
import dev.tokentrace.parse.Rejection;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * Decides what a JSON record is by TensorRT-LLM-specific keys, never by shape alone, so that
 * another engine's JSON (vLLM OTLP exports, SGLang request logs and metrics exports) is rejected
 * instead of becoming an event, and hands it to its mapper. Tree parsing is fine here: records are
 * small and one per iteration or request. Not thread-safe (the mappers keep state).
 */
final class JsonRecords implements JsonSplitter.Handler {
  static final String REQUEST_STATS_RULE = "trtllm: request stats";

  /** Python's json.dumps writes NaN and Infinity for float nan/inf (time-events writer). */
  private static final ObjectReader READER =
      JsonMapper.builder().enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build().reader();

  /** For {@link #wholeLine}: a second value on the line must fail, not be dropped. */
  private static final ObjectReader WHOLE_LINE_READER =
      READER.with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  private final IterationStatsMapper iterationStats;
  private final TritonStatsMapper tritonStats;
  private final PerfMetricsMapper perfMetrics;

  JsonRecords(String instance, LogTimes times) {
    this.iterationStats = new IterationStatsMapper(instance, times);
    this.tritonStats = new TritonStatsMapper(instance, times);
    this.perfMetrics = new PerfMetricsMapper(instance);
  }

  @Override
  public void element(String json, SourcePosition start, ParseSink sink) {
    record(json, start, null, sink);
  }

  @Override
  public boolean wholeLine(String line, SourcePosition position, ParseSink sink) {
    JsonNode node;
    try {
      node = WHOLE_LINE_READER.readTree(line);
    } catch (JsonProcessingException e) {
      // not one complete object: the splitter finds out what it is, and reports it
      return false;
    }
    if (node == null || !node.isObject()) {
      return false;
    }
    route(node, line, position, null, sink);
    return true;
  }

  /** One JSON object, e.g. from a log message; {@code lineTs} is the line's own time. */
  void record(String json, SourcePosition source, @Nullable Instant lineTs, ParseSink sink) {
    JsonNode node;
    try {
      node = READER.readTree(json);
    } catch (JsonProcessingException e) {
      reject(sink, source, "json: malformed value", json);
      return;
    }
    if (node == null || !node.isObject()) {
      reject(sink, source, "json array: non-object element", json);
      return;
    }
    route(node, json, source, lineTs, sink);
  }

  private void route(
      JsonNode node, String json, SourcePosition source, @Nullable Instant lineTs, ParseSink sink) {
    String kind = "json";
    try {
      if (IterationStatsMapper.accepts(node)) {
        kind = "iteration stats";
        iterationStats.map(node, source, sink);
      } else if (TritonStatsMapper.accepts(node)) {
        kind = "triton stats";
        tritonStats.map(node, lineTs, source, sink);
      } else if (PerfMetricsMapper.acceptsItem(node)) {
        kind = "perf metrics";
        perfMetrics.item(node, source, sink, json);
      } else if (PerfMetricsMapper.acceptsDisagg(node)) {
        kind = "perf metrics";
        perfMetrics.disagg(node, source, sink, json);
      } else if (PerfMetricsMapper.acceptsTimeEvents(node)) {
        kind = "time events";
        perfMetrics.timeEvents(node, source, sink, json);
      } else {
        other(node, source, sink, json);
      }
    } catch (JsonFields.BadValue e) {
      reject(sink, source, kind + ": bad '" + e.key + "' value", json);
    }
  }

  private static void other(JsonNode node, SourcePosition source, ParseSink sink, String json) {
    if (node.has("iter") && node.has("requestStats")) {
      // RequestStatsPerIteration (§3.1): per-request stages with executor ids that no client
      // ever sees, so nothing joins them to requests
      sink.ignored(source, REQUEST_STATS_RULE);
    } else if (node.has("resourceSpans")
        || node.has("resourceLogs")
        || node.has("resourceMetrics")) {
      reject(sink, source, "json: otlp export not supported by the trtllm parser", json);
    } else {
      reject(sink, source, "json: not a tensorrt-llm record", json);
    }
  }

  private static void reject(ParseSink sink, SourcePosition source, String reason, String json) {
    sink.rejected(Rejection.of(source, Engine.TRTLLM, reason, json));
  }
}
