package dev.tokentrace.parse.vllm;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tokentrace.event.Engine;
import dev.tokentrace.event.RequestKeys;
import dev.tokentrace.event.RequestTiming;
import dev.tokentrace.event.SourcePosition;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Reads one {@code llm_request} span (attribute names: docs/formats/vllm.md#otlp-spans). OTLP/JSON
 * writes 64-bit integers as decimal strings and NaN/infinities as strings
 * (docs/formats/vllm.md#otlp-json-export); both forms and plain JSON numbers are accepted. The
 * first malformed value, a non-finite latency among them, makes the span a rejection naming the
 * field and the value. Single use.
 */
final class OtlpSpan {
  private static final String REQUEST_ID = "gen_ai.request.id";
  private static final long NANOS_PER_SECOND = 1_000_000_000L;

  /** No request lasts longer; a longer span or latency is a clock or unit error. */
  private static final Duration MAX_SPAN = Duration.ofDays(7);

  private static final Instant EARLIEST = Instant.parse("2000-01-01T00:00:00Z");
  private static final Instant LATEST = Instant.parse("2100-01-01T00:00:00Z");
  private static final List<String> LATENCIES =
      List.of(
          "gen_ai.latency.time_in_queue",
          "gen_ai.latency.time_in_model_prefill",
          "gen_ai.latency.time_in_model_decode",
          "gen_ai.latency.time_to_first_token",
          "gen_ai.latency.e2e");

  /** {@code -?digits[.digits][e[+-]digits]}: a JSON number written inside a string. */
  private static final Pattern DECIMAL = Pattern.compile("-?\\d+(\\.\\d+)?([eE][+-]?\\d+)?");

  private final JsonNode span;
  private final Map<String, JsonNode> attributes = new HashMap<>();
  private @Nullable String problem;

  OtlpSpan(JsonNode span) {
    this.span = span;
    for (JsonNode attribute : span.path("attributes")) {
      String key = attribute.path("key").asText(null);
      JsonNode value = attribute.get("value");
      if (key != null && value != null) {
        attributes.put(key, value);
      }
    }
  }

  /** Why {@link #timing} returned null; only valid after it did. */
  String problem() {
    return Objects.requireNonNull(problem, "problem of a span that was read");
  }

  @Nullable RequestTiming timing(String instance, SourcePosition position) {
    String id = text(attributes.get(REQUEST_ID));
    if (id == null || id.isBlank()) {
      problem = "otlp: llm_request span without " + REQUEST_ID;
      return null;
    }
    if (RequestLines.idProblem(id) != null) {
      return fail(REQUEST_ID);
    }
    Instant arrival = instant("startTimeUnixNano");
    Instant end = instant("endTimeUnixNano");
    Double queue = millis("gen_ai.latency.time_in_queue");
    Double prefill = millis("gen_ai.latency.time_in_model_prefill");
    Double decode = millis("gen_ai.latency.time_in_model_decode");
    Double ttft = millis("gen_ai.latency.time_to_first_token");
    Double e2e = millis("gen_ai.latency.e2e");
    Integer prompt = count("gen_ai.usage.prompt_tokens");
    Integer output = count("gen_ai.usage.completion_tokens");
    Integer cached = count("gen_ai.usage.cached_tokens");
    if (problem == null) {
      plausible(arrival, end);
      for (String key : LATENCIES) {
        plausible(key);
      }
    }
    if (problem != null) {
      return null;
    }
    return new RequestTiming(
        Engine.VLLM,
        instance,
        end,
        position,
        id,
        RequestKeys.normalize(id),
        arrival,
        queue,
        prefill,
        decode,
        ttft,
        e2e,
        prompt,
        output,
        cached,
        finishReason(),
        OtlpTraceLine.SOURCE_KIND);
  }

  private @Nullable Instant instant(String field) {
    JsonNode node = span.get(field);
    if (node == null || node.isNull()) {
      return null;
    }
    long nanos = -1;
    if (node.isTextual()) {
      nanos = Decimals.longValue(node.asText());
    } else if (node.isIntegralNumber() && node.canConvertToLong()) {
      nanos = node.longValue();
    }
    if (nanos < 0) {
      return fail(field);
    }
    // the Collector omits zero values, so 0 means unset
    return nanos == 0
        ? null
        : Instant.ofEpochSecond(nanos / NANOS_PER_SECOND, nanos % NANOS_PER_SECOND);
  }

  /** A latency attribute in seconds as milliseconds rounded to the microsecond. */
  private @Nullable Double millis(String key) {
    JsonNode value = attributes.get(key);
    if (value == null) {
      return null;
    }
    JsonNode number = value.has("doubleValue") ? value.get("doubleValue") : value.get("intValue");
    if (number == null) {
      return fail(key);
    }
    double seconds;
    if (number.isNumber()) {
      seconds = number.doubleValue();
    } else if (number.isTextual() && isNonFinite(number.asText())) {
      return nonFinite(key, number.asText());
    } else if (number.isTextual() && isDecimal(number.asText())) {
      seconds = Double.parseDouble(number.asText());
    } else {
      return fail(key);
    }
    if (!Double.isFinite(seconds)) {
      return nonFinite(key, number.asText());
    }
    double micros = seconds * 1e6;
    if (!Double.isFinite(micros)) {
      return fail(key);
    }
    return Math.abs(micros) < 1e15 ? Math.round(micros) / 1e3 : micros / 1e3;
  }

  private @Nullable Integer count(String key) {
    JsonNode value = attributes.get(key);
    if (value == null) {
      return null;
    }
    JsonNode number = value.has("intValue") ? value.get("intValue") : value.get("doubleValue");
    int count = -1;
    if (number != null && number.isTextual()) {
      String text = number.asText();
      count = Decimals.integer(text, 0, text.length());
    } else if (number != null && number.isNumber() && number.canConvertToInt()) {
      double exact = number.doubleValue();
      count = exact == Math.rint(exact) && exact >= 0 ? number.intValue() : -1;
    }
    return count >= 0 ? Integer.valueOf(count) : fail(key);
  }

  /** {@code gen_ai.response.finish_reasons}: a string or an array of strings (first one). */
  private @Nullable String finishReason() {
    JsonNode value = attributes.get("gen_ai.response.finish_reasons");
    if (value == null) {
      return null;
    }
    JsonNode first = value.path("arrayValue").path("values").path(0);
    String reason = text(first.isMissingNode() ? value : first);
    boolean plain = reason != null && !reason.isEmpty() && reason.length() <= 32;
    for (int i = 0; plain && i < reason.length(); i++) {
      char c = reason.charAt(i);
      plain = (c >= 'a' && c <= 'z') || c == '_';
    }
    return plain ? reason : null;
  }

  private static @Nullable String text(@Nullable JsonNode value) {
    if (value == null) {
      return null;
    }
    JsonNode text = value.get("stringValue");
    return text != null && text.isTextual() ? text.asText() : null;
  }

  private static boolean isNonFinite(String text) {
    return text.equals("NaN") || text.equals("Infinity") || text.equals("-Infinity");
  }

  private static boolean isDecimal(String text) {
    return text.length() <= 64 && DECIMAL.matcher(text).matches();
  }

  /**
   * Times a request cannot have: outside 2000-2099 (a zero or garbage clock), an end before the
   * start, a span longer than {@link #MAX_SPAN} (the 130-year span of a start at epoch 1).
   */
  private void plausible(@Nullable Instant start, @Nullable Instant end) {
    for (Instant time : new Instant[] {start, end}) {
      if (time != null && (time.isBefore(EARLIEST) || !time.isBefore(LATEST))) {
        problem = "otlp: implausible span time " + time + " (not in 2000-2099)";
        return;
      }
    }
    if (start != null && end != null) {
      if (end.isBefore(start)) {
        problem = "otlp: span ends before it starts";
      } else if (Duration.between(start, end).compareTo(MAX_SPAN) > 0) {
        problem = "otlp: implausible span longer than 7 days";
      }
    }
  }

  /** A latency attribute that is negative or longer than {@link #MAX_SPAN}. */
  private void plausible(String key) {
    Double ms = problem == null ? millis(key) : null;
    if (ms == null) {
      return;
    }
    if (ms < 0) {
      problem = "otlp: negative '" + key + "' value";
    } else if (ms > MAX_SPAN.toMillis()) {
      problem = "otlp: implausible '" + key + "' value (longer than 7 days)";
    }
  }

  /** A latency of NaN or an infinity: no duration, so the span is rejected, never read as null. */
  private <T> @Nullable T nonFinite(String field, String value) {
    if (problem == null) {
      problem = "otlp: '" + field + "' is " + value + ", not a finite number of seconds";
    }
    return null;
  }

  private <T> @Nullable T fail(String field) {
    if (problem == null) {
      problem = "otlp: bad '" + field + "' value";
    }
    return null;
  }
}
