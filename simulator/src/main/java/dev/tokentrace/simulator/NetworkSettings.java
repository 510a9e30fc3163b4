package dev.tokentrace.simulator;

import static java.util.Objects.requireNonNull;

/**
 * One-way delays between client and server, sampled once per attempt and direction, plus an
 * optional slow-network episode that adds {@code slowExtraMs} to every message sent during {@code
 * [slowAtS, slowAtS + slowDurationS)} seconds after the run started ({@code slowAtS < 0}: none).
 */
public record NetworkSettings(
    Distribution uplinkMs,
    Distribution downlinkMs,
    double slowAtS,
    double slowDurationS,
    double slowExtraMs) {
  public NetworkSettings {
    requireNonNull(uplinkMs, "uplinkMs is null");
    requireNonNull(downlinkMs, "downlinkMs is null");
    Checks.nonNegative("slowDurationS", slowDurationS);
    Checks.nonNegative("slowExtraMs", slowExtraMs);
  }
}
