package dev.tokentrace.clients;

import dev.tokentrace.event.SourcePosition;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * NGINX access logs (format id {@value #FORMAT}; docs/formats/gateways.md#nginx): our documented
 * {@code log_format tokentrace} ({@link #TEXT}), its {@code escape=json} variant ({@link #JSON}),
 * or any layout given as {@code --log-format '<log_format directive>'}. The default {@code
 * combined} format is recognized and refused with a message: it carries no timings.
 *
 * <p>Per line: end = {@code $msec}, duration = {@code $request_time} (both ms precision), start =
 * end − duration; the request ID is {@code $http_x_request_id}, else {@code $request_id} (or the
 * variable {@code --id-column} names); {@code $upstream_*} lists hold one element per upstream
 * attempt and the last one is the attempt that answered (docs/formats/gateways.md#retries).
 */
final class NginxClientTimingReader extends GatewayLogReader {
  static final String FORMAT = "nginx";

  /** Our {@code log_format tokentrace} (docs/guide.md "NGINX"). */
  static final String TEXT =
      "$msec $status $request_time \"$http_x_request_id\" \"$request_id\" \"$upstream_addr\""
          + " \"$upstream_status\" \"$upstream_connect_time\" \"$upstream_header_time\""
          + " \"$upstream_response_time\" $body_bytes_sent";

  /** Its {@code escape=json} variant, one JSON object per line. */
  static final String JSON =
      "log_format tokentrace_json escape=json '{\"msec\":\"$msec\",\"status\":\"$status\","
          + "\"request_time\":\"$request_time\",\"http_x_request_id\":\"$http_x_request_id\","
          + "\"request_id\":\"$request_id\",\"upstream_addr\":\"$upstream_addr\","
          + "\"upstream_status\":\"$upstream_status\","
          + "\"upstream_connect_time\":\"$upstream_connect_time\","
          + "\"upstream_header_time\":\"$upstream_header_time\","
          + "\"upstream_response_time\":\"$upstream_response_time\","
          + "\"body_bytes_sent\":\"$body_bytes_sent\"}';";

  /** NGINX's predefined {@code combined} format: no request time, no request ID. */
  static final String COMBINED =
      "$remote_addr - $remote_user [$time_local] \"$request\" $status $body_bytes_sent"
          + " \"$http_referer\" \"$http_user_agent\"";

  private static final AccessLogTemplate TEXT_TEMPLATE = AccessLogTemplate.nginx(TEXT);
  private static final AccessLogTemplate JSON_TEMPLATE = AccessLogTemplate.nginx(JSON);
  private static final AccessLogTemplate COMBINED_TEMPLATE = AccessLogTemplate.nginx(COMBINED);
  private static final List<String> ID_VARIABLES = List.of("http_x_request_id", "request_id");

  private final @Nullable AccessLogTemplate custom;
  private final @Nullable String customError;
  private final @Nullable String idField;

  NginxClientTimingReader(ClientReadSettings settings) {
    super(settings);
    AccessLogTemplate template = null;
    String error = null;
    if (settings.logFormat() != null) {
      try {
        template = AccessLogTemplate.nginx(settings.logFormat());
      } catch (IllegalArgumentException e) {
        error = "nginx: --log-format: " + e.getMessage(); // perhaps an Envoy format: said on use
      }
    }
    this.custom = template;
    this.customError = error;
    this.idField =
        settings.idColumn() != null ? settings.idColumn().replace("$", "").strip() : null;
  }

  @Override
  GatewayLogReader with(ClientReadSettings settings) {
    return new NginxClientTimingReader(settings);
  }

  @Override
  @Nullable String customProblem() {
    return customError != null ? customError : custom != null ? unusable(custom) : null;
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
    if (custom != null && custom.match(first) != null) {
      return Recognition.yes();
    }
    if (TEXT_TEMPLATE.match(first) != null
        || JSON_TEMPLATE.match(first) != null
        || COMBINED_TEMPLATE.match(first) != null) {
      return Recognition.yes();
    }
    return Recognition.no(
        "first line is not an NGINX access-log line of the tokentrace, tokentrace_json or combined"
            + " log_format (give --format nginx --log-format '<log_format ...>' for another)");
  }

  @Override
  AccessLogTemplate template(FileHead head) {
    if (custom != null) {
      return custom;
    }
    String first = head.firstLine();
    if (first.startsWith("{")) {
      return JSON_TEMPLATE;
    }
    return COMBINED_TEMPLATE.match(first) != null && TEXT_TEMPLATE.match(first) == null
        ? COMBINED_TEMPLATE
        : TEXT_TEMPLATE;
  }

  @Override
  @Nullable String unusable(AccessLogTemplate template) {
    if (customError != null) {
      return customError;
    }
    if (!template.has("request_time")) {
      return "nginx: the log format has no $request_time, so the log carries no timings"
          + (template == COMBINED_TEMPLATE ? " (this is NGINX's default 'combined' format)" : "")
          + ": log the tokentrace log_format (docs/guide.md, 'NGINX')";
    }
    if (!template.has("msec")) {
      return "nginx: the log format has no $msec ($time_local and $time_iso8601 have whole"
          + " seconds): log the tokentrace log_format (docs/guide.md, 'NGINX')";
    }
    List<String> ids = idField != null ? List.of(idField) : ID_VARIABLES;
    if (ids.stream().noneMatch(template::has)) {
      return "nginx: the log format has no request id variable ("
          + String.join(", ", ids.stream().map(id -> "$" + id).toList())
          + "): the log cannot be joined with the engine's";
    }
    return null;
  }

  @Override
  String mismatch(String text) {
    return COMBINED_TEMPLATE.match(text) != null
        ? "line is in NGINX's 'combined' format, which carries no timings"
        : "line does not match the nginx log_format";
  }

  @Override
  ClientTiming row(SourcePosition position, Map<String, String> values) throws BadField {
    String id = id(values, idField, ID_VARIABLES);
    Double end = seconds(value(values, "msec"), "$msec");
    Double e2e = seconds(value(values, "request_time"), "$request_time");
    if (end == null) {
      throw new BadField("missing '$msec' value");
    }
    if (e2e == null) {
      throw new BadField("missing '$request_time' value");
    }
    Integer status = status(values, "status", "$status");
    List<@Nullable String> addrs = attempts(value(values, "upstream_addr"));
    List<@Nullable String> connect = attempts(value(values, "upstream_connect_time"));
    List<@Nullable String> header = attempts(value(values, "upstream_header_time"));
    List<@Nullable String> response = attempts(value(values, "upstream_response_time"));
    int tries =
        Math.max(
            Math.max(addrs.size(), attempts(value(values, "upstream_status")).size()),
            Math.max(connect.size(), Math.max(header.size(), response.size())));
    Instant start = Instant.ofEpochSecond(0, Math.round((end - e2e) * 1_000_000.0));
    GatewayDetail gateway =
        new GatewayDetail(
            seconds(last(connect), "$upstream_connect_time"),
            seconds(last(header), "$upstream_header_time"),
            seconds(last(response), "$upstream_response_time"),
            tries == 0 ? null : tries,
            value(values, "upstream_addr"),
            status);
    return timing(position, id, start, e2e, status, gateway);
  }

  private static @Nullable String last(List<@Nullable String> list) {
    return list.isEmpty() ? null : list.get(list.size() - 1);
  }
}
