package dev.tokentrace.correlate.attribution;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Estimates the offset from a client's clock to a server's steady clock from the two request time
 * series alone: for servers whose per-request records carry neither a client ID nor a wall time
 * (TensorRT-LLM {@code /perf_metrics}: seconds since boot, an engine counter for the ID;
 * docs/formats/trtllm.md#perf-metrics and docs/formats/trtllm.md#request-ids).
 *
 * <p>Each true pair (client send c, server arrival s) has s = c + offset + uplink, so the offset is
 * one of the differences s - c. <b>Candidates</b>: the differences between a few anchor sends,
 * spread over the run, and the arrivals near their rank whose durations fit inside the anchor's
 * (server TTFT and e2e not above the client's, counted from the send, beyond the tolerance).
 * <b>Fit</b> of a candidate: the median over the sends of the distance from the shifted send to the
 * nearest arrival whose durations fit. A true offset scores the network jitter; a wrong one the
 * typical gap between requests. The median holds with up to half the sends missing on the server,
 * with extra server requests (other tenants) and with reordering. The best candidate is
 * <b>refined</b>: sends and arrivals are paired one to one within max(10 ms, 5 fits), nearest
 * first; offset = the median difference and spread = 1.4826 MAD after dropping pairs beyond 3
 * robust deviations, as sql/attribution/clock_offsets.sql does for ID pairs. The best fit among
 * clearly different offsets (more than max(50 ms, 10 fits) away) is the <b>runner-up</b>: a fixed
 * request rate fits every multiple of its period, and the caller must see that.
 *
 * <p>Rank pairing (sort both, pair in order) was rejected: it needs equal counts and shifts every
 * pair after the first request missing on either side. Durations are used because a burst (many
 * sends at one instant) or a fixed rate makes the times alone fit several offsets, while a server
 * request longer than the client's cannot be the same request.
 *
 * <p>Cost: candidates ≤ 12 anchors × a rank window (the count difference plus max(32, 10%)), each
 * scored on at most 128 sends by binary search. Stateless: thread-safe.
 */
final class SteadyClockAligner {
  static final int ANCHORS = 12;
  static final int SAMPLE = 128;
  static final int RESCORED = 16;
  static final int MIN_RANK_WINDOW = 32;
  static final double RANK_WINDOW_FRACTION = 0.1;
  static final int MAX_SCAN = 256;
  static final double MIN_SEPARATION_MS = 50.0;
  static final double SEPARATION_FITS = 10.0;
  static final double MIN_PAIR_TOLERANCE_MS = 10.0;
  static final double PAIR_TOLERANCE_FITS = 5.0;
  static final int MAX_EDGES_PER_SEND = 32;
  static final double OUTLIER_MADS = 3.0;
  static final double MIN_OUTLIER_WINDOW_MS = 10.0;
  static final int MIN_PAIRS = 3;
  private static final double MAD_SCALE = 1.4826;

  private final double toleranceMs;

  /**
   * @param toleranceMs how far a server duration may exceed the client's (rounding), as {@code
   *     --negative-tolerance-ms}
   */
  SteadyClockAligner(double toleranceMs) {
    if (!(toleranceMs >= 0) || Double.isInfinite(toleranceMs)) {
      throw new IllegalArgumentException("toleranceMs must be finite and >= 0: " + toleranceMs);
    }
    this.toleranceMs = toleranceMs;
  }

  /**
   * The estimate, or empty when no server request fits inside any anchor send or fewer than {@value
   * #MIN_PAIRS} sends pair with an arrival.
   *
   * @param offsetMs server minus client: add it to a client time to put it on the server's clock
   * @param minMs smallest kept pair difference (server arrival - client send)
   * @param pairs sends paired with an arrival; {@code usedPairs} of them within the outlier window
   * @param fitMs median distance from a shifted send to the nearest fitting arrival, at the best
   *     candidate
   * @param runnerUpFitMs the same at the best clearly different candidate; null when none fits
   * @param serverRequests server arrivals within the span of the aligned sends
   */
  record Alignment(
      double offsetMs,
      double spreadMs,
      double minMs,
      double maxMs,
      int pairs,
      int usedPairs,
      double fitMs,
      @Nullable Double runnerUpFitMs,
      int clientRequests,
      int serverRequests) {}

  /** A candidate offset and its fit. */
  private record Scored(double offsetMs, double fitMs) {}

  /** A send and an arrival within the pairing tolerance. */
  private record Edge(int send, int arrival, double differenceMs) {}

  Optional<Alignment> align(TimeSeries client, TimeSeries server) {
    double[] candidates = candidates(client, server);
    if (candidates.length == 0) {
      return Optional.empty();
    }
    int[] sample = sample(client.size());
    List<Scored> scored = new ArrayList<>(candidates.length);
    for (double candidate : candidates) {
      scored.add(new Scored(candidate, fit(client, server, candidate, sample)));
    }
    scored.sort(Comparator.comparingDouble(Scored::fitMs).thenComparingDouble(Scored::offsetMs));
    int[] all = sample(client.size(), client.size());
    Scored best = null;
    for (Scored candidate : scored.subList(0, Math.min(RESCORED, scored.size()))) {
      Scored full =
          new Scored(candidate.offsetMs(), fit(client, server, candidate.offsetMs(), all));
      if (best == null || full.fitMs() < best.fitMs()) {
        best = full;
      }
    }
    if (best == null || Double.isInfinite(best.fitMs())) {
      return Optional.empty();
    }
    return refine(client, server, best, runnerUp(client, server, scored, best, all));
  }

  /** Differences between anchor sends and the arrivals near their rank that fit inside them. */
  private double[] candidates(TimeSeries client, TimeSeries server) {
    int sends = client.size();
    int arrivals = server.size();
    if (sends == 0 || arrivals == 0) {
      return new double[0];
    }
    int anchors = Math.min(sends, ANCHORS);
    int window =
        Math.abs(sends - arrivals)
            + Math.max(
                MIN_RANK_WINDOW, (int) Math.ceil(RANK_WINDOW_FRACTION * Math.max(sends, arrivals)));
    double[] out = new double[anchors * Math.min(arrivals, 2 * window + 1)];
    int count = 0;
    for (int k = 0; k < anchors; k++) {
      int anchor = anchors == 1 ? 0 : (int) Math.round((double) k * (sends - 1) / (anchors - 1));
      int expected =
          sends == 1 ? 0 : (int) Math.round((double) anchor * (arrivals - 1) / (sends - 1));
      int last = Math.min(arrivals - 1, expected + window);
      for (int arrival = Math.max(0, expected - window); arrival <= last; arrival++) {
        if (fits(client, anchor, server, arrival)) {
          out[count++] = server.at(arrival) - client.at(anchor);
        }
      }
    }
    return Arrays.copyOf(out, count);
  }

  /** The best scored candidate clearly apart from the best, with its fit on every send. */
  private @Nullable Double runnerUp(
      TimeSeries client, TimeSeries server, List<Scored> scored, Scored best, int[] all) {
    double separation = Math.max(MIN_SEPARATION_MS, SEPARATION_FITS * best.fitMs());
    for (Scored candidate : scored) {
      if (Math.abs(candidate.offsetMs() - best.offsetMs()) > separation) {
        double fit = fit(client, server, candidate.offsetMs(), all);
        return Double.isInfinite(fit) ? null : fit;
      }
    }
    return null;
  }

  /**
   * Median distance from each sampled send, shifted, to the nearest arrival that fits inside it.
   */
  private double fit(TimeSeries client, TimeSeries server, double offsetMs, int[] sends) {
    double[] distances = new double[sends.length];
    for (int k = 0; k < sends.length; k++) {
      distances[k] = nearestFitting(client, sends[k], server, client.at(sends[k]) + offsetMs);
    }
    return median(distances);
  }

  /**
   * Distance from {@code time} to the nearest arrival that fits inside send {@code send}, scanning
   * outwards; infinite when none within {@value #MAX_SCAN} arrivals.
   */
  private double nearestFitting(TimeSeries client, int send, TimeSeries server, double time) {
    int above = server.firstAtOrAfter(time);
    int below = above - 1;
    for (int step = 0; step < MAX_SCAN && (below >= 0 || above < server.size()); step++) {
      double down = below >= 0 ? time - server.at(below) : Double.POSITIVE_INFINITY;
      double up = above < server.size() ? server.at(above) - time : Double.POSITIVE_INFINITY;
      int arrival = down <= up ? below-- : above++;
      if (fits(client, send, server, arrival)) {
        return Math.min(down, up);
      }
    }
    return Double.POSITIVE_INFINITY;
  }

  /** The server request is not longer than the client's (TTFT and e2e, where both are known). */
  private boolean fits(TimeSeries client, int send, TimeSeries server, int arrival) {
    return notLonger(server.ttft(arrival), client.ttft(send))
        && notLonger(server.e2e(arrival), client.e2e(send));
  }

  private boolean notLonger(double serverMs, double clientMs) {
    return Double.isNaN(serverMs) || Double.isNaN(clientMs) || serverMs <= clientMs + toleranceMs;
  }

  /** Pairs sends and arrivals one to one around the best offset and takes the robust statistics. */
  private Optional<Alignment> refine(
      TimeSeries client, TimeSeries server, Scored best, @Nullable Double runnerUpFitMs) {
    double tolerance = Math.max(MIN_PAIR_TOLERANCE_MS, PAIR_TOLERANCE_FITS * best.fitMs());
    double[] differences = pair(client, server, best.offsetMs(), tolerance);
    if (differences.length < MIN_PAIRS) {
      return Optional.empty();
    }
    double center = median(differences);
    double window =
        Math.max(OUTLIER_MADS * MAD_SCALE * mad(differences, center), MIN_OUTLIER_WINDOW_MS);
    double[] kept =
        Arrays.stream(differences).filter(d -> Math.abs(d - center) <= window).toArray();
    double keptCenter = median(kept);
    double first = client.at(0) + best.offsetMs() - tolerance;
    double last = client.at(client.size() - 1) + best.offsetMs() + tolerance;
    int serverRequests = server.firstAtOrAfter(Math.nextUp(last)) - server.firstAtOrAfter(first);
    return Optional.of(
        new Alignment(
            best.offsetMs() + keptCenter,
            MAD_SCALE * mad(kept, keptCenter),
            best.offsetMs() + Arrays.stream(kept).min().orElseThrow(),
            best.offsetMs() + Arrays.stream(kept).max().orElseThrow(),
            differences.length,
            kept.length,
            best.fitMs(),
            runnerUpFitMs,
            client.size(),
            serverRequests));
  }

  /**
   * Differences (arrival - shifted send) of sends and fitting arrivals paired one to one within the
   * tolerance, nearest pairs first.
   */
  private double[] pair(TimeSeries client, TimeSeries server, double offsetMs, double tolerance) {
    List<Edge> edges = new ArrayList<>();
    for (int send = 0; send < client.size(); send++) {
      double time = client.at(send) + offsetMs;
      List<Edge> near = new ArrayList<>();
      for (int arrival = server.firstAtOrAfter(time - tolerance);
          arrival < server.size() && server.at(arrival) <= time + tolerance;
          arrival++) {
        if (fits(client, send, server, arrival)) {
          near.add(new Edge(send, arrival, server.at(arrival) - time));
        }
      }
      near.sort(Comparator.comparingDouble(edge -> Math.abs(edge.differenceMs())));
      edges.addAll(near.subList(0, Math.min(MAX_EDGES_PER_SEND, near.size())));
    }
    edges.sort(Comparator.comparingDouble(edge -> Math.abs(edge.differenceMs())));
    boolean[] sendTaken = new boolean[client.size()];
    boolean[] arrivalTaken = new boolean[server.size()];
    double[] differences = new double[Math.min(client.size(), server.size())];
    int count = 0;
    for (Edge edge : edges) {
      if (!sendTaken[edge.send()] && !arrivalTaken[edge.arrival()]) {
        sendTaken[edge.send()] = true;
        arrivalTaken[edge.arrival()] = true;
        differences[count++] = edge.differenceMs();
      }
    }
    return Arrays.copyOf(differences, count);
  }

  /** Every index below {@code size}, or {@value #SAMPLE} of them evenly spread. */
  private static int[] sample(int size) {
    return sample(size, Math.min(size, SAMPLE));
  }

  private static int[] sample(int size, int count) {
    int[] indices = new int[count];
    for (int k = 0; k < count; k++) {
      indices[k] = count == size ? k : (int) ((long) k * size / count);
    }
    return indices;
  }

  /** Median (the mean of the middle two for an even count); infinities sort last. */
  static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int middle = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  }

  private static double mad(double[] values, double center) {
    return median(Arrays.stream(values).map(value -> Math.abs(value - center)).toArray());
  }
}
