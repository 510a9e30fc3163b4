package dev.tokentrace.clients;

import org.jspecify.annotations.Nullable;

/**
 * What only some clients record about a request, all optional: the HTTP phases of AIPerf's trace
 * (docs/formats/clients.md#aiperf; k6/HAR names) and the streamed chunks. Durations in ms.
 *
 * @param ackMs start to the server's HTTP acknowledgement (AIPerf {@code request_ack_ns})
 * @param connectMs DNS lookup plus TCP/TLS connect ({@code http_req_dns_lookup +
 *     http_req_connecting}); 0 on a reused connection
 * @param sendMs sending the request ({@code http_req_sending})
 * @param waitMs request sent to first response body byte, TTFB ({@code http_req_waiting})
 * @param receiveMs first to last response byte ({@code http_req_receiving})
 * @param chunks streamed response chunks that carried content (inter-chunk gaps + 1)
 * @param itlMaxMs the longest gap between two such chunks (a stall)
 */
public record ClientDetail(
    @Nullable Double ackMs,
    @Nullable Double connectMs,
    @Nullable Double sendMs,
    @Nullable Double waitMs,
    @Nullable Double receiveMs,
    @Nullable Integer chunks,
    @Nullable Double itlMaxMs) {
  /** Nothing recorded. */
  public static final ClientDetail NONE =
      new ClientDetail(null, null, null, null, null, null, null);

  public ClientDetail {
    finiteNonNegative("ackMs", ackMs);
    finiteNonNegative("connectMs", connectMs);
    finiteNonNegative("sendMs", sendMs);
    finiteNonNegative("waitMs", waitMs);
    finiteNonNegative("receiveMs", receiveMs);
    finiteNonNegative("chunks", chunks);
    finiteNonNegative("itlMaxMs", itlMaxMs);
  }

  private static void finiteNonNegative(String field, @Nullable Number value) {
    if (value != null && !(value.doubleValue() >= 0 && Double.isFinite(value.doubleValue()))) {
      throw new IllegalArgumentException(field + " must be finite and >= 0: " + value);
    }
  }
}
