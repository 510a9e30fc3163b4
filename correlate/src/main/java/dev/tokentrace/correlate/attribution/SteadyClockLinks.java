package dev.tokentrace.correlate.attribution;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Decides which client run was sent to which steady-clock server instance when several of each have
 * no request paired by ID. Every run is aligned against every instance ({@link
 * SteadyClockAligner}); a run is linked to the instance it fits best, if that fit is at most
 * {@value #MAX_FIT_MS} ms (a true alignment fits to the network jitter). The link is flagged
 * ambiguous, and not used to pair requests, when an alternative fits nearly as well: another offset
 * on the same instance (a fixed request rate) or another instance, within a factor {@value
 * #AMBIGUITY_FACTOR} of the best fit (fits under {@value #FIT_FLOOR_MS} ms count as that much).
 *
 * <p>Assumptions (documented for the user in correlate/README.md): one benchmark run is sent to one
 * server instance, the common case; several runs may share an instance (runs one after another, or
 * two tenants at once), since each run keeps its own offset. A run spread over several instances (a
 * load balancer) fits none of them well enough and is not aligned. Stateless: thread-safe.
 */
final class SteadyClockLinks {
  static final double MAX_FIT_MS = 50.0;
  static final double AMBIGUITY_FACTOR = 2.0;
  static final double FIT_FLOOR_MS = 1.0;
  static final int FEW_PAIRS = 5;
  static final double NOISY_SPREAD_MS = 1000.0;

  private SteadyClockLinks() {}

  /** A client run's series on one clock (wall or monotonic). */
  record Run(String runId, String clientClock) {}

  /** A server instance's steady-clock series. */
  record Instance(String name, @Nullable String engine, TimeSeries series) {}

  /**
   * A run linked to an instance.
   *
   * @param runnerUpFitMs the best alternative's fit (another offset or instance); null when none
   */
  record Link(
      Run run,
      Instance instance,
      SteadyClockAligner.Alignment alignment,
      @Nullable Double runnerUpFitMs,
      boolean ambiguous) {

    /** The clock_offsets flags: ambiguous, few_pairs, noisy; null when none. */
    @Nullable String flag() {
      List<String> flags = new ArrayList<>();
      if (ambiguous) {
        flags.add("ambiguous");
      }
      if (alignment.spreadMs() > NOISY_SPREAD_MS) {
        flags.add("noisy");
      }
      if (alignment.usedPairs() < FEW_PAIRS) {
        flags.add("few_pairs");
      }
      return flags.isEmpty() ? null : String.join(", ", flags);
    }
  }

  /** One link per run that fits an instance, in the runs' order. */
  static List<Link> link(
      Map<Run, TimeSeries> runs, List<Instance> instances, SteadyClockAligner aligner) {
    List<Link> links = new ArrayList<>();
    for (Map.Entry<Run, TimeSeries> run : runs.entrySet()) {
      List<Candidate> aligned = new ArrayList<>();
      for (Instance instance : instances) {
        Optional<SteadyClockAligner.Alignment> alignment =
            aligner.align(run.getValue(), instance.series());
        alignment.ifPresent(value -> aligned.add(new Candidate(instance, value)));
      }
      aligned.sort(Comparator.comparingDouble(candidate -> candidate.alignment().fitMs()));
      if (!aligned.isEmpty() && aligned.get(0).alignment().fitMs() <= MAX_FIT_MS) {
        links.add(chosen(run.getKey(), aligned));
      }
    }
    return links;
  }

  private record Candidate(Instance instance, SteadyClockAligner.Alignment alignment) {}

  /** The best-fitting instance; the runner-up is its next offset or the next instance. */
  private static Link chosen(Run run, List<Candidate> aligned) {
    Candidate best = aligned.get(0);
    Double runnerUp = best.alignment().runnerUpFitMs();
    if (aligned.size() > 1) {
      double other = aligned.get(1).alignment().fitMs();
      runnerUp = runnerUp == null ? other : Math.min(runnerUp, other);
    }
    boolean ambiguous =
        runnerUp != null
            && runnerUp < AMBIGUITY_FACTOR * Math.max(best.alignment().fitMs(), FIT_FLOOR_MS);
    return new Link(run, best.instance(), best.alignment(), runnerUp, ambiguous);
  }
}
