package dev.tokentrace.correlate.client;

import org.jspecify.annotations.Nullable;

/**
 * What a client file does not say but its reader needs.
 *
 * @param requestIdPrefix the {@code --request-id-prefix} a {@code vllm bench serve} run used: the
 *     request IDs it sent are this prefix plus the request's index, and the result file does not
 *     store them (docs/formats/clients.md#vllm-bench-serve). Null: the rows keep local IDs and join
 *     only with {@code --match heuristic}.
 */
public record ClientReadSettings(@Nullable String requestIdPrefix) {
  public static final String REQUEST_ID_PREFIX_DOC =
      "vllm-bench files: the --request-id-prefix the benchmark ran with (its default,"
          + " bench-<8 hex>-, is random and not in the result file); request IDs are rebuilt as"
          + " prefix + index";

  /** No prefix. */
  public static final ClientReadSettings DEFAULTS = new ClientReadSettings(null);

  public ClientReadSettings {
    if (requestIdPrefix != null && (requestIdPrefix.isEmpty() || requestIdPrefix.length() > 200)) {
      throw new IllegalArgumentException(
          "requestIdPrefix must be 1-200 characters: '" + requestIdPrefix + "'");
    }
  }
}
