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
  }

  long uplinkUs(Attempt attempt, long sendUs) {
    return attempt.uplinkBaseUs + extraUs(sendUs);
  }

  long downlinkUs(Attempt attempt, long sendUs) {
    return attempt.downlinkBaseUs + extraUs(sendUs);
  }

  private long extraUs(long sendUs) {
    return sendUs >= slowFromUs && sendUs < slowToUs ? slowExtraUs : 0;
  }

  static long micros(double ms) {
    return Math.round(ms * 1000);
  }
}
