package dev.tokentrace.clients;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tokentrace.event.SourcePosition;
import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Envoy access logs (format id {@value #FORMAT}; docs/formats/gateways.md#envoy): the default
 * format string ({@link #DEFAULT}), JSON lines ({@code json_format}) whose keys are our documented
 * names or, with {@code --log-format '{"key":"%OPERATOR%",...}'}, any names, and any format string
 * with {@code %OPERATOR%}s given as {@code --log-format}.
 *
 * <p>Per line: start = {@code %START_TIME%} (ISO-8601 with ms, or epoch s/ms), duration = {@code
 * %DURATION%} (whole ms), request ID = {@code %REQ(X-REQUEST-ID)%}; {@code %RESPONSE_DURATION%} or
 * the {@code x-envoy-upstream-service-time} response header give the upstream header time, {@code
 * %UPSTREAM_HOST%} the upstream that answered and {@code %UPSTREAM_REQUEST_ATTEMPT_COUNT%} the
 * attempts (retries).
 */
final class EnvoyClientTimingReader extends GatewayLogReader {
  static final String FORMAT = "envoy";

  /** Envoy's default format string (docs/formats/gateways.md#envoy-default). */
  static final String DEFAULT =
      "[%START_TIME%] \"%REQ(:METHOD)% %REQ(X-ENVOY-ORIGINAL-PATH?:PATH)% %PROTOCOL%\""
          + " %RESPONSE_CODE% %RESPONSE_FLAGS% %BYTES_RECEIVED% %BYTES_SENT% %DURATION%"
          + " %RESP(X-ENVOY-UPSTREAM-SERVICE-TIME)% \"%REQ(X-FORWARDED-FOR)%\""
          + " \"%REQ(USER-AGENT)%\" \"%REQ(X-REQUEST-ID)%\" \"%REQ(:AUTHORITY)%\""
          + " \"%UPSTREAM_HOST%\"";

  /** The keys of our documented {@code json_format} and the operator each holds. */
  static final Map<String, String> JSON_KEYS =
      Map.ofEntries(
          Map.entry("start_time", "START_TIME"),
          Map.entry("duration", "DURATION"),
          Map.entry("request_duration", "REQUEST_DURATION"),
          Map.entry("response_duration", "RESPONSE_DURATION"),
          Map.entry("response_tx_duration", "RESPONSE_TX_DURATION"),
          Map.entry("x_request_id", "REQ(X-REQUEST-ID)"),
          Map.entry("request_id", "REQ(X-REQUEST-ID)"),
          Map.entry("upstream_host", "UPSTREAM_HOST"),
          Map.entry("response_code", "RESPONSE_CODE"),
          Map.entry("upstream_service_time", "RESP(X-ENVOY-UPSTREAM-SERVICE-TIME)"),
          Map.entry("upstream_request_attempt_count", "UPSTREAM_REQUEST_ATTEMPT_COUNT"));

  private static final AccessLogTemplate DEFAULT_TEMPLATE = AccessLogTemplate.envoy(DEFAULT);
  private static final String ID = "REQ(X-REQUEST-ID)";

  /** Stands for "the line is a JSON object", mapped through {@link #jsonKeys}. */
  private static final AccessLogTemplate JSON_MARK = AccessLogTemplate.envoy("%JSON%");

  private final @Nullable AccessLogTemplate custom;
  private final @Nullable String customError;
  private final Map<String, String> jsonKeys;
  private final @Nullable String idField;

  EnvoyClientTimingReader(ClientReadSettings settings) {
    super(settings);
    String format = settings.logFormat();
    Map<String, String> keys = JSON_KEYS;
    AccessLogTemplate template = null;
    String error = null;
    try {
      if (format != null && format.strip().startsWith("{")) {
        keys = jsonKeys(format);
      } else if (format != null) {
        template = AccessLogTemplate.envoy(format);
      }
    } catch (IllegalArgumentException e) {
      error = "envoy: --log-format: " + e.getMessage(); // perhaps an NGINX format: said on use
    }
    this.custom = template;
    this.customError = error;
    this.jsonKeys = keys;
    this.idField =
        settings.idColumn() != null
            ? settings.idColumn().replace("%", "").strip().toUpperCase(Locale.ROOT)
            : null;
  }

  @Override
  GatewayLogReader with(ClientReadSettings settings) {
    return new EnvoyClientTimingReader(settings);
  }

  @Override
  @Nullable String customProblem() {
    if (customError != null) {
      return customError;
    }
    if (custom != null) {
      return unusable(custom);
    }
    return jsonKeys != JSON_KEYS ? unusable(JSON_MARK) : null;
  }

  @Override
  public String format() {
    return FORMAT;
  }

  @Override
  public Recognition recognize(FileHead head) {
    if (customError != null) {
      return Recognition.no(customError);
    }
    String first = head.firstLine();
    if (custom != null ? custom.match(first) != null : DEFAULT_TEMPLATE.match(first) != null) {
      return Recognition.yes();
    }
    if (head.isJsonObject() && head.has("start_time") && head.has("duration")) {
      return Recognition.yes();
    }
    return Recognition.no(
        "first line is not an Envoy access-log line of the default format or JSON with start_time"
            + " and duration (give --format envoy --log-format '<format>' for another)");
  }

  @Override
  AccessLogTemplate template(FileHead head) {
    if (custom != null) {
      return custom;
    }
    return head.firstLine().startsWith("{") ? JSON_MARK : DEFAULT_TEMPLATE;
  }

  @Override
  @Nullable String unusable(AccessLogTemplate template) {
    if (customError != null) {
      return customError;
    }
    if (template == JSON_MARK) {
      return jsonKeys.containsValue("START_TIME") && jsonKeys.containsValue("DURATION")
          ? null
          : "envoy: the JSON format has no %START_TIME% or no %DURATION% key";
    }
    for (String needed : List.of("START_TIME", "DURATION", idField != null ? idField : ID)) {
      if (!template.has(needed)) {
        return "envoy: the log format has no %"
            + needed
            + "%"
            + (needed.equals("DURATION") || needed.equals("START_TIME")
                ? ", so the log carries no timings"
                : ": the log cannot be joined with the engine's");
      }
    }
    return null;
  }

  @Override
  void readLine(
      SourcePosition position, String text, AccessLogTemplate template, ClientReaderOutput sink)
      throws BadField {
    if (template != JSON_MARK) {
      super.readLine(position, text, template, sink);
      return;
    }
    JsonNode node;
    try {
      node = ClientJson.MAPPER.readTree(text);
    } catch (IOException e) {
      throw new BadField("malformed json");
    }
    if (node == null || !node.isObject()) {
      throw new BadField("line is not a JSON object");
    }
    Map<String, String> values = new LinkedHashMap<>();
    node.fields()
        .forEachRemaining(
            field -> {
              String operator = jsonKeys.get(field.getKey());
              if (operator != null && !field.getValue().isNull()) {
                values.put(operator, field.getValue().asText());
              }
            });
    sink.row(row(position, values));
  }

  @Override
  ClientTiming row(SourcePosition position, Map<String, String> values) throws BadField {
    String id = id(values, idField, List.of(ID));
    String startText = value(values, "START_TIME");
    if (startText == null) {
      throw new BadField("missing '%START_TIME%' value");
    }
    Instant start = start(startText);
    Double e2e = millis(value(values, "DURATION"), "%DURATION%");
    if (e2e == null) {
      throw new BadField("missing '%DURATION%' value");
    }
    Integer status = status(values, "RESPONSE_CODE", "%RESPONSE_CODE%");
    Double header = millis(value(values, "RESPONSE_DURATION"), "%RESPONSE_DURATION%");
    if (header == null) {
      header =
          millis(
              value(values, "RESP(X-ENVOY-UPSTREAM-SERVICE-TIME)"),
              "x-envoy-upstream-service-time");
    }
    String attempts = value(values, "UPSTREAM_REQUEST_ATTEMPT_COUNT");
    Integer tries =
        attempts == null ? null : ClientFields.count("%UPSTREAM_REQUEST_ATTEMPT_COUNT%", attempts);
    GatewayDetail gateway =
        new GatewayDetail(null, header, null, tries, value(values, "UPSTREAM_HOST"), status);
    return timing(position, id, start, e2e, status, gateway);
  }

  private static Instant start(String text) throws BadField {
    try {
      return Instant.parse(text);
    } catch (DateTimeParseException e) {
      return StartTimestamps.parse(text);
    }
  }

  /** The key → operator map of a {@code json_format} dictionary given as {@code --log-format}. */
  private static Map<String, String> jsonKeys(String format) {
    JsonNode node;
    try {
      node = ClientJson.MAPPER.readTree(format);
    } catch (IOException e) {
      throw new IllegalArgumentException("--log-format: not a JSON object: " + e.getMessage());
    }
    Map<String, String> keys = new LinkedHashMap<>();
    node.fields()
        .forEachRemaining(
            field -> {
              String operator = field.getValue().asText().strip();
              if (operator.startsWith("%") && operator.endsWith("%") && operator.length() > 2) {
                keys.put(
                    field.getKey(),
                    operator.substring(1, operator.length() - 1).toUpperCase(Locale.ROOT));
              }
            });
    return keys;
  }
}
