package dev.tokentrace.clients;

import org.jspecify.annotations.Nullable;

/**
 * What a client file does not say but its reader needs.
 *
 * @param logFormat an NGINX {@code log_format} directive or Envoy format string (gateway logs in a
 *     layout of their own); null: the documented tokentrace layouts
 * @param idColumn the column, variable or operator holding the request ID; null: the default
 * @param requestIdPrefix the {@code --request-id-prefix} a {@code vllm bench serve} run used: the
 *     request IDs it sent are this prefix plus the request's index, and the result file does not
 *     store them (docs/formats/clients.md#vllm-bench-serve). Null: the rows keep local IDs and join
 *     only with {@code --match heuristic}.
 */
public record ClientReadSettings(
    @Nullable String requestIdPrefix, @Nullable String logFormat, @Nullable String idColumn) {
  public static final String LOG_FORMAT_DOC =
      "nginx and envoy logs in your own layout: the log_format directive from nginx.conf"
          + " (log_format name [escape=json] '...';) or Envoy's format string (its START_TIME, DURATION, ... operators"
          + " each between percent signs);"
          + " default: the tokentrace formats of docs/guide.md";

  public static final String ID_COLUMN_DOC =
      "where the request id is: a JMeter JTL column (sample_variables; default the first of"
          + " request_id, x_request_id, X-Request-Id), an nginx variable (default"
          + " $http_x_request_id, else $request_id) or an Envoy operator (default"
          + " REQ(X-REQUEST-ID))";

  public static final String REQUEST_ID_PREFIX_DOC =
      "vllm-bench files: the --request-id-prefix the benchmark ran with (its default,"
          + " bench-<8 hex>-, is random and not in the result file); request IDs are rebuilt as"
          + " prefix + index";

  /** No prefix. */
  public static final ClientReadSettings DEFAULTS = new ClientReadSettings(null, null, null);

  /** Only a vLLM bench prefix. */
  public ClientReadSettings(@Nullable String requestIdPrefix) {
    this(requestIdPrefix, null, null);
  }

  public ClientReadSettings {
    if (requestIdPrefix != null && (requestIdPrefix.isEmpty() || requestIdPrefix.length() > 200)) {
      throw new IllegalArgumentException(
          "--request-id-prefix must be 1-200 characters: '" + requestIdPrefix + "'");
    }
    if (logFormat != null && logFormat.isBlank()) {
      throw new IllegalArgumentException("logFormat is blank");
    }
    if (idColumn != null && idColumn.isBlank()) {
      throw new IllegalArgumentException("idColumn is blank");
    }
  }
}
