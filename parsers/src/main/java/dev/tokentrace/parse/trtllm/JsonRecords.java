package dev.tokentrace.parse.trtllm;

import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.tokentrace.event.Engine;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.parse.ParseOutput;
import dev.tokentrace.parse.Rejection;
import dev.tokentrace.parse.Timestamps;
import java.io.IOException;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * Decides what a JSON record is by TensorRT-LLM-specific keys, never by shape alone, so that
 * another engine's JSON (vLLM OTLP exports, SGLang request logs and metrics exports) is rejected
 * instead of becoming an event, and hands it to its mapper. Iteration stats, one record per engine
 * step, are read as a {@link SparseTree} of the keys their mapper reads; other records (one per
 * request or rarer) as a whole tree. Not thread-safe (the mappers keep state).
 */
final class JsonRecords implements JsonSplitter.Handler {
  static final String REQUEST_STATS_RULE = "trtllm: request stats";

  /**
   * Python's json.dumps writes NaN and Infinity for float nan/inf (time-events writer). Doubles are
   * read by Jackson's bundled fast parser, which rounds exactly as {@link Double#parseDouble}
   * (docs/formats/trtllm.md#json-reading-cost).
   */
  private static final ObjectReader READER =
      JsonMapper.builder()
          .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
          .enable(StreamReadFeature.USE_FAST_DOUBLE_PARSER)
          .build()
          .reader();

  /** For {@link #wholeLine}: a second value on the line must fail, not be dropped. */
  private static final ObjectReader WHOLE_LINE_READER =
      READER.with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  private final IterationStatsMapper iterationStats;
  private final TritonStatsMapper tritonStats;
  private final PerfMetricsMapper perfMetrics;
  private final boolean sparse;
  private final SparseTree statsTree =
      new SparseTree(READER, IterationStatsMapper.KEYS, IterationStatsMapper.CHILD_KEYS);

  JsonRecords(String instance, Timestamps.Local times) {
    this(instance, times, true);
  }

  /**
   * With {@code sparse} false every record is read whole: what the sparse read is tested against.
   */
  JsonRecords(String instance, Timestamps.Local times, boolean sparse) {
    this.sparse = sparse;
    this.iterationStats = new IterationStatsMapper(instance, times);
    this.tritonStats = new TritonStatsMapper(instance, times);
    this.perfMetrics = new PerfMetricsMapper(instance);
  }

  @Override
  public void element(String json, SourcePosition start, ParseOutput sink) {
    record(json, start, null, sink);
  }

  @Override
  public boolean wholeLine(String line, SourcePosition position, ParseOutput sink) {
    JsonNode node;
    try {
      JsonFields.Record stats = sparseStats(line, true);
      if (stats != null) {
        iterationStats(stats, line, position, sink);
        return true;
      }
      node = WHOLE_LINE_READER.readTree(line);
    } catch (IOException e) {
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
  void record(String json, SourcePosition source, @Nullable Instant lineTs, ParseOutput sink) {
    JsonNode node;
    try {
      JsonFields.Record stats = sparseStats(json, false);
      if (stats != null) {
        iterationStats(stats, json, source, sink);
        return;
      }
      node = READER.readTree(json);
    } catch (IOException e) {
      reject(sink, source, "json: malformed value", json);
      return;
    }
    if (node == null || !node.isObject()) {
      reject(sink, source, "json array: non-object element", json);
      return;
    }
    route(node, json, source, lineTs, sink);
  }

  /**
   * Iteration stats read as a {@link SparseTree} (with {@code wholeLine}, failing on trailing
   * tokens), or null when {@code json} is no iteration stats record and must be read as a whole
   * tree: the same outcome for every text as reading the whole tree first.
   */
  private JsonFields.@Nullable Record sparseStats(String json, boolean wholeLine)
      throws IOException {
    if (sparse && mayBeIterationStats(json)) {
      JsonFields.Record stats = statsTree.read(json, wholeLine);
      if (IterationStatsMapper.accepts(stats)) {
        return stats;
      }
    }
    return null;
  }

  /**
   * Iteration stats have an {@code "iter"} key; text without it (literally, or an escape that could
   * spell it) needs no sparse read before the whole one.
   */
  private boolean mayBeIterationStats(String json) {
    return statsTree.covers(json) && (json.contains("\"iter\"") || json.indexOf('\\') >= 0);
  }

  private void iterationStats(
      JsonFields.Record stats, String json, SourcePosition source, ParseOutput sink) {
    try {
      iterationStats.map(stats, source, sink);
    } catch (JsonFields.BadValue e) {
      reject(sink, source, "iteration stats: bad '" + e.key + "' value", json);
    }
  }

  private void route(
      JsonNode node,
      String json,
      SourcePosition source,
      @Nullable Instant lineTs,
      ParseOutput sink) {
    String kind = "json";
    try {
      if (IterationStatsMapper.accepts(JsonFields.Record.of(node))) {
        iterationStats(JsonFields.Record.of(node), json, source, sink);
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

  private static void other(JsonNode node, SourcePosition source, ParseOutput sink, String json) {
    if (node.has("iter") && node.has("requestStats")) {
      // RequestStatsPerIteration (docs/formats/trtllm.md#request-stats): per-request stages with
      // executor ids that no client
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

  private static void reject(ParseOutput sink, SourcePosition source, String reason, String json) {
    sink.rejected(Rejection.of(source, Engine.TRTLLM, reason, json));
  }
}
