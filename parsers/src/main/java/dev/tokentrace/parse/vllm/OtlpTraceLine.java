package dev.tokentrace.parse.vllm;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.tokentrace.event.Engine;
import dev.tokentrace.event.RequestTiming;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.parse.ParseOutput;
import dev.tokentrace.parse.Rejection;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One line of an OpenTelemetry Collector file export ({@code {"resourceSpans":[...]}} per line,
 * docs/formats/vllm.md#otlp-json-export): one request_timing (source kind {@code otlp}) per span
 * named {@code llm_request}, other spans skipped. Durations are the {@code gen_ai.latency.*}
 * attributes in seconds, converted to milliseconds and rounded to the microsecond (so 0.0841 s
 * reads 84.1 ms, not 84.10000000000001). V0 spans have no prefill/decode attributes; those stay
 * null.
 */
final class OtlpTraceLine {
  static final String SOURCE_KIND = "otlp";
  private static final String SPAN_NAME = "llm_request";

  private static final ObjectReader READER =
      JsonMapper.builder()
          .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build()
          .reader();

  private OtlpTraceLine() {}

  /** True when the line is a JSON object (its first non-blank character is a brace). */
  static boolean isJsonObject(String line) {
    for (int at = 0; at < line.length(); at++) {
      char c = line.charAt(at);
      if (c != ' ' && c != '\t' && c != '\uFEFF') {
        return c == '{';
      }
    }
    return false;
  }

  /** Spans read from one document: all of them, and those named {@code llm_request}. */
  record Counts(int spans, int requests) {
    static final Counts NONE = new Counts(0, 0);
  }

  static Counts parse(String line, SourcePosition position, String instance, ParseOutput sink) {
    JsonNode root;
    int brace = line.indexOf('{');
    try {
      // a byte-order mark or indentation before the brace is not JSON
      root = READER.readTree(brace == 0 ? line : line.substring(brace));
    } catch (JsonEOFException e) {
      reject(line, position, sink, looksLikeExport(line) ? "otlp: truncated json" : null);
      return Counts.NONE;
    } catch (JsonProcessingException e) {
      String reason = "otlp: invalid json: " + shortMessage(e);
      reject(line, position, sink, looksLikeExport(line) ? reason : null);
      return Counts.NONE;
    }
    JsonNode resourceSpans = root == null ? null : root.get("resourceSpans");
    if (resourceSpans == null || !resourceSpans.isArray()) {
      if (root != null && JaegerTrace.isExport(root)) {
        return spans(JaegerTrace.spans(root), line, position, instance, sink);
      }
      reject(line, position, sink, "json line: not an otlp trace export");
      return Counts.NONE;
    }
    List<JsonNode> spans = new ArrayList<>();
    for (JsonNode resource : resourceSpans) {
      for (JsonNode scope : scopes(resource)) {
        for (JsonNode span : scope.path("spans")) {
          spans.add(span);
        }
      }
    }
    return spans(spans, line, position, instance, sink);
  }

  private static Counts spans(
      List<JsonNode> spans,
      String line,
      SourcePosition position,
      String instance,
      ParseOutput sink) {
    int reported = 0;
    for (JsonNode span : spans) {
      if (SPAN_NAME.equals(span.path("name").asText(null))) {
        reported += report(line, position, instance, span, sink);
      }
    }
    if (reported == 0) {
      sink.ignored(position, "otlp: no llm_request span");
    }
    return new Counts(spans.size(), reported);
  }

  /** {@code scopeSpans}, or {@code instrumentationLibrarySpans} of OTLP before 0.15 (2022). */
  private static JsonNode scopes(JsonNode resource) {
    JsonNode scopes = resource.path("scopeSpans");
    return scopes.isMissingNode() ? resource.path("instrumentationLibrarySpans") : scopes;
  }

  private static int report(
      String line, SourcePosition position, String instance, JsonNode span, ParseOutput sink) {
    OtlpSpan reader = new OtlpSpan(span);
    RequestTiming timing = reader.timing(instance, position);
    if (timing == null) {
      sink.rejected(Rejection.of(position, Engine.VLLM, reader.problem(), line));
    } else {
      sink.event(timing);
    }
    return 1;
  }

  /** A Collector export line always starts with its one field, {@code resourceSpans}. */
  private static boolean looksLikeExport(String line) {
    int brace = line.indexOf('{');
    int key = line.indexOf("\"resourceSpans\"");
    return key > brace && line.substring(brace + 1, key).isBlank();
  }

  private static String shortMessage(JsonProcessingException e) {
    String message = e.getOriginalMessage();
    if (message == null) {
      return e.getClass().getSimpleName();
    }
    int newline = message.indexOf('\n');
    String first = newline < 0 ? message : message.substring(0, newline);
    return first.length() <= 120 ? first : first.substring(0, 120);
  }

  private static void reject(
      String line, SourcePosition position, ParseOutput sink, @Nullable String reason) {
    String why = reason == null ? VllmLineParser.UNRECOGNIZED : reason;
    sink.rejected(Rejection.of(position, Engine.VLLM, why, line));
  }
}
