package dev.tokentrace.clients;

import org.jspecify.annotations.Nullable;

/**
 * What a gateway (reverse proxy) logs about the upstream leg of one request, all optional, for the
 * last upstream attempt (the one whose response the client got; docs/formats/gateways.md#retries).
 * Durations in ms, measured by the gateway.
 *
 * @param upstreamConnectMs connecting to the engine (NGINX {@code $upstream_connect_time})
 * @param upstreamHeaderMs to the engine's response header (NGINX {@code $upstream_header_time},
 *     Envoy {@code x-envoy-upstream-service-time} / {@code %RESPONSE_DURATION%})
 * @param upstreamResponseMs to the engine's last response byte (NGINX {@code
 *     $upstream_response_time})
 * @param upstreamAttempts upstream attempts (more than 1: the gateway retried)
 * @param upstreamAddr the upstream address(es) as logged (several for retries)
 * @param httpStatus the status the gateway returned to the client
 */
public record GatewayDetail(
    @Nullable Double upstreamConnectMs,
    @Nullable Double upstreamHeaderMs,
    @Nullable Double upstreamResponseMs,
    @Nullable Integer upstreamAttempts,
    @Nullable String upstreamAddr,
    @Nullable Integer httpStatus) {
  public GatewayDetail {
    finiteNonNegative("upstreamConnectMs", upstreamConnectMs);
    finiteNonNegative("upstreamHeaderMs", upstreamHeaderMs);
    finiteNonNegative("upstreamResponseMs", upstreamResponseMs);
    finiteNonNegative("upstreamAttempts", upstreamAttempts);
  }

  private static void finiteNonNegative(String field, @Nullable Number value) {
    if (value != null && !(value.doubleValue() >= 0 && Double.isFinite(value.doubleValue()))) {
      throw new IllegalArgumentException(field + " must be finite and >= 0: " + value);
    }
  }
}
