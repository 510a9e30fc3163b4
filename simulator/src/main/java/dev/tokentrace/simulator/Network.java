package dev.tokentrace.simulator;

import java.util.SplittableRandom;

/** One-way delays: a per-attempt base per direction plus the slow episode's extra. */
final class Network {
  private final NetworkSettings settings;
  private final SplittableRandom random;
  private final long slowFromUs;
  private final long slowToUs;
  private final long slowExtraUs;

  Network(NetworkSettings settings, SplittableRandom random) {
    this.settings = settings;
    this.random = random;
    this.slowFromUs = settings.slowAtS() < 0 ? Long.MAX_VALUE : micros(settings.slowAtS() * 1000);
    this.slowToUs =
        settings.slowAtS() < 0
            ? Long.MAX_VALUE
            : micros((settings.slowAtS() + settings.slowDurationS()) * 1000);
    this.slowExtraUs = micros(settings.slowExtraMs());
  }

  /** Draws the attempt's base delays; called once when it is sent. */
  void sample(Attempt attempt) {
    attempt.uplinkBaseUs = micros(settings.uplinkMs().sample(random));
    attempt.downlinkBaseUs = micros(settings.downlinkMs().sample(random));
    if (settings
        .gateway()) { // drawn after the client's, so runs without a gateway stay as they were
      attempt.gatewayUplinkUs = micros(settings.gatewayUplinkMs().sample(random));
      attempt.gatewayDownlinkUs = micros(settings.gatewayDownlinkMs().sample(random));
    }
  }

  /** Client to server: the client's leg, then (with a gateway) the gateway's. */
  long uplinkUs(Attempt attempt, long sendUs) {
    return clientUplinkUs(attempt, sendUs) + attempt.gatewayUplinkUs;
  }

  /** The client-to-gateway part of the uplink (the whole uplink without a gateway). */
  long clientUplinkUs(Attempt attempt, long sendUs) {
    return attempt.uplinkBaseUs + extraUs(sendUs);
  }

  long downlinkUs(Attempt attempt, long sendUs) {
    return attempt.downlinkBaseUs + extraUs(sendUs) + attempt.gatewayDownlinkUs;
  }

  private long extraUs(long sendUs) {
    return sendUs >= slowFromUs && sendUs < slowToUs ? slowExtraUs : 0;
  }

  boolean gateway() {
    return settings.gateway();
  }

  static long micros(double ms) {
    return Math.round(ms * 1000);
  }
}
