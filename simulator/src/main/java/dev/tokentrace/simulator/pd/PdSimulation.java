package dev.tokentrace.simulator.pd;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;

/**
 * The P/D model (docs/formats/pd.md#simulator), deterministic for a scenario and its seed:
 * open-loop Poisson arrivals; the proxy sends a request round robin to a prefill server, which runs
 * {@code prefillSlots} requests at once, first come first served, for a fixed time plus a time per
 * prompt token and answers with one token; the proxy then sends it round robin to a decode server,
 * which pulls the prompt's KV cache over the link of that pair (one transfer at a time per link,
 * first come first served: the contention), then waits for one of its {@code decodeSlots} and
 * decodes (a first step, then a time per further output token). The client's ID reaches both
 * servers. No I/O.
 */
public final class PdSimulation {
  private PdSimulation() {}

  /** Every request, in issue order. */
  static List<PdRequest> run(PdScenario s) {
    SplittableRandom random = new SplittableRandom(s.seed());
    int n = s.requests();
    long[] issued = new long[n];
    long[] queue = new long[n];
    int[] prompt = new int[n];
    int[] output = new int[n];
    long[] toProxy = new long[n];
    long[] back = new long[n];
    long t = 1_000_000;
    for (int i = 0; i < n; i++) {
      t += Math.round(-Math.log(1 - random.nextDouble()) / s.ratePerS() * 1e6);
      issued[i] = t;
      queue[i] = s.maxClientQueueUs() == 0 ? 0 : random.nextLong(s.maxClientQueueUs() + 1);
      prompt[i] = s.minPrompt() + random.nextInt(s.maxPrompt() - s.minPrompt() + 1);
      output[i] = s.minOutput() + random.nextInt(s.maxOutput() - s.minOutput() + 1);
      toProxy[i] = s.networkUs() + random.nextLong(s.networkJitterUs() + 1);
      back[i] = s.networkUs() + random.nextLong(s.networkJitterUs() + 1);
    }
    // prefill servers, in order of arrival
    long[] prefillArrival = new long[n];
    int[] prefillServer = new int[n];
    for (int i = 0; i < n; i++) {
      prefillServer[i] = i % s.prefillServers();
      prefillArrival[i] = issued[i] + queue[i] + toProxy[i] + s.proxyUs();
    }
    long[] prefillStart = new long[n];
    long[] prefillFirst = new long[n];
    List<PriorityQueue<Long>> prefillSlots = slots(s.prefillServers(), s.prefillSlots());
    for (int i : order(prefillArrival)) {
      PriorityQueue<Long> free = prefillSlots.get(prefillServer[i]);
      prefillStart[i] = Math.max(prefillArrival[i], free.poll());
      prefillFirst[i] =
          prefillStart[i] + s.prefillFixedUs() + Math.round(s.prefillPerTokenUs() * prompt[i]);
      free.add(prefillFirst[i]);
    }
    // the proxy gets the prefill answer and sends the request on to a decode server
    long[] decodeArrival = new long[n];
    int[] decodeServer = new int[n];
    for (int i = 0; i < n; i++) {
      // rotated against the prefill servers' round robin, so that every pair serves requests
      decodeServer[i] = (i + i / s.prefillServers()) % s.decodeServers();
      decodeArrival[i] = prefillFirst[i] + 2 * s.proxyUs();
    }
    long[] kvReady = new long[n];
    long[] kvBytes = new long[n];
    long[][] linkFree = new long[s.prefillServers()][s.decodeServers()];
    for (int i : order(decodeArrival)) {
      int p = prefillServer[i];
      int d = decodeServer[i];
      kvBytes[i] = s.kvBytesPerToken() * prompt[i];
      long transferUs = Math.round(kvBytes[i] * 8 / (s.gbps(p, d) * 1e9) * 1e6);
      long start = Math.max(decodeArrival[i], linkFree[p][d]);
      kvReady[i] = start + transferUs;
      linkFree[p][d] = kvReady[i];
    }
    long[] decodeStart = new long[n];
    long[] decodeFirst = new long[n];
    long[] decodeLast = new long[n];
    List<PriorityQueue<Long>> decodeSlots = slots(s.decodeServers(), s.decodeSlots());
    for (int i : order(kvReady)) {
      PriorityQueue<Long> free = decodeSlots.get(decodeServer[i]);
      decodeStart[i] = Math.max(kvReady[i], free.poll());
      decodeFirst[i] = decodeStart[i] + s.decodeFirstUs();
      decodeLast[i] = decodeFirst[i] + (long) (output[i] - 1) * s.decodePerTokenUs();
      free.add(decodeLast[i]);
    }
    List<PdRequest> requests = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      long returnUs = s.proxyUs() + back[i];
      requests.add(
          new PdRequest(
              i,
              String.format("pd-%s-%05d", s.name(), i),
              prompt[i],
              output[i],
              issued[i],
              queue[i],
              prefillServer[i],
              prefillArrival[i],
              prefillStart[i],
              prefillFirst[i],
              decodeServer[i],
              decodeArrival[i],
              kvReady[i],
              kvBytes[i],
              decodeStart[i],
              decodeFirst[i],
              decodeLast[i],
              decodeFirst[i] + returnUs,
              decodeLast[i] + returnUs));
    }
    return requests;
  }

  private static List<PriorityQueue<Long>> slots(int servers, int slots) {
    List<PriorityQueue<Long>> all = new ArrayList<>(servers);
    for (int s = 0; s < servers; s++) {
      PriorityQueue<Long> free = new PriorityQueue<>();
      for (int k = 0; k < slots; k++) {
        free.add(0L);
      }
      all.add(free);
    }
    return all;
  }

  /** Indexes sorted by time, ties by index: first come, first served. */
  private static List<Integer> order(long[] times) {
    List<Integer> indexes = new ArrayList<>(times.length);
    for (int i = 0; i < times.length; i++) {
      indexes.add(i);
    }
    indexes.sort(Comparator.<Integer>comparingLong(i -> times[i]).thenComparingInt(i -> i));
    return indexes;
  }
}
