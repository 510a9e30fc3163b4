package dev.tokentrace.simulator.output;

import dev.tokentrace.simulator.Ids;

/** Process IDs of the simulated server, derived from the seed. */
final class Pids {
  private Pids() {}

  static long api(long seed) {
    return 1000 + Math.floorMod(Ids.mix(seed), 60_000);
  }
}
