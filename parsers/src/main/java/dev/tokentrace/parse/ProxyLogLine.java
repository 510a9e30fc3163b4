package dev.tokentrace.parse;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tokentrace.event.Engine;
import dev.tokentrace.event.ProxyRequest;
import dev.tokentrace.event.RequestKeys;
import dev.tokentrace.event.SourcePosition;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import org.jspecify.annotations.Nullable;

/**
 * One line of a P/D proxy's access log, our own format (docs/formats/pd.md#proxy-access-log):
 *
 * <pre>
 * {"ts":"2026-03-02T10:00:02.893Z","client_request_id":"c-1","upstream_request_id":"9f1c...","prefill":"prefill-0","decode":"decode-0","status":200}
 * </pre>
 *
 * <p>(see {@code samples/pd/proxy/decode-saturated/proxy/access.jsonl}). Pure; used by the engines'
 * parsers ({@link ProxyLogRouter}) and by {@code clients}.
 */
public final class ProxyLogLine {
  /** The prefix of every rejection's reason. */
  public static final String REASON = "proxy-log: ";

  private static final ObjectMapper JSON = new ObjectMapper();

  private ProxyLogLine() {}

  /** Whether {@code line} is meant as one: a JSON object naming the upstream request ID. */
  public static boolean claims(String line) {
    String text = line.strip();
    return text.startsWith("{") && text.contains("\"upstream_request_id\"");
  }

  /**
   * The line's event.
   *
   * @throws IllegalArgumentException with the reason (after {@link #REASON}) when it is no valid
   *     line: not a JSON object, an ID missing or empty, a {@code ts} that is no ISO-8601 time
   */
  public static ProxyRequest parse(
      String line, Engine engine, String instance, SourcePosition position) {
    JsonNode node;
    try {
      node = JSON.readTree(line);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not a JSON object");
    }
    if (node == null || !node.isObject()) {
      throw new IllegalArgumentException("not a JSON object");
    }
    String client = text(node, "client_request_id");
    String upstream = text(node, "upstream_request_id");
    if (client == null || upstream == null) {
      throw new IllegalArgumentException(
          "client_request_id and upstream_request_id must both be non-empty strings");
    }
    JsonNode status = node.get("status");
    return new ProxyRequest(
        engine,
        instance,
        ts(text(node, "ts")),
        position,
        client,
        RequestKeys.normalize(client),
        upstream,
        RequestKeys.normalize(upstream),
        text(node, "prefill"),
        text(node, "decode"),
        status != null && status.canConvertToInt() ? status.intValue() : null);
  }

  private static @Nullable Instant ts(@Nullable String at) {
    if (at == null) {
      return null;
    }
    try {
      // UTC when it has no offset (docs/formats/pd.md#proxy-access-log)
      return at.endsWith("Z") || at.contains("+")
          ? Instant.parse(at)
          : LocalDateTime.parse(at).toInstant(ZoneOffset.UTC);
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException("ts is not an ISO-8601 time: " + at);
    }
  }

  private static @Nullable String text(JsonNode node, String field) {
    JsonNode value = node.get(field);
    return value != null && value.isTextual() && !value.asText().isBlank()
        ? value.asText().strip()
        : null;
  }
}
