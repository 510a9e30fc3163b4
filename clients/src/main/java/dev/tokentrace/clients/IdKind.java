package dev.tokentrace.clients;

import java.util.Locale;

/**
 * Where a client row's request ID comes from, and so whether the server can know it. Stored in
 * {@code client_timing.id_kind}; only {@link #LOCAL} rows are never joined by key
 * (docs/formats/clients.md#client-formats, column "ID the server sees").
 */
public enum IdKind {
  /** The client sent it (X-Request-Id): our CSV, AIPerf {@code x_request_id}. */
  SENT,
  /**
   * The server's own response {@code id}: GuideLLM {@code response_id}, GenAI-Perf SSE {@code id}.
   */
  RESPONSE,
  /** Rebuilt from what the client sent: vLLM bench {@code --request-id-prefix} + index. */
  REBUILT,
  /**
   * Known only to the client, or made up by the reader: joinable only by {@code --match heuristic}.
   */
  LOCAL;

  /** The value stored in {@code client_timing.id_kind}. */
  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }
}
