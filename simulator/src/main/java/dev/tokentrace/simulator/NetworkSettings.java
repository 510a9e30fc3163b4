package dev.tokentrace.simulator;

import static java.util.Objects.requireNonNull;

import org.jspecify.annotations.Nullable;

/**
 * One-way delays between client and server, sampled once per attempt and direction, plus an
 * optional slow-network episode that adds {@code slowExtraMs} to every message sent during {@code
 * [slowAtS, slowAtS + slowDurationS)} seconds after the run started ({@code slowAtS < 0}: none).
 *
 * <p>With a gateway ({@code gatewayUplinkMs} set), the first two are the client-to-gateway leg and
 * the gateway adds its own one-way delays to the engine and back, sampled per attempt; the slow
 * episode stays on the client's leg (docs/formats/gateways.md#simulated-gateway).
 */
public record NetworkSettings(
    Distribution uplinkMs,
    Distribution downlinkMs,
    double slowAtS,
    double slowDurationS,
    double slowExtraMs,
    @Nullable Distribution gatewayUplinkMs,
    @Nullable Distribution gatewayDownlinkMs) {
  public NetworkSettings {
    requireNonNull(uplinkMs, "uplinkMs is null");
    requireNonNull(downlinkMs, "downlinkMs is null");
    Checks.nonNegative("slowDurationS", slowDurationS);
    Checks.nonNegative("slowExtraMs", slowExtraMs);
    Checks.check(
        (gatewayUplinkMs == null) == (gatewayDownlinkMs == null),
        "gateway uplink and downlink go together");
  }

  /** Client and server with nothing between them. */
  public NetworkSettings(
      Distribution uplinkMs,
      Distribution downlinkMs,
      double slowAtS,
      double slowDurationS,
      double slowExtraMs) {
    this(uplinkMs, downlinkMs, slowAtS, slowDurationS, slowExtraMs, null, null);
  }

  /** Whether a gateway stands between client and server. */
  public boolean gateway() {
    return gatewayUplinkMs != null;
  }
}
