package dev.tokentrace.simulator;

import dev.tokentrace.simulator.EventQueue.Kind;
import java.util.ArrayDeque;
import java.util.SplittableRandom;

/**
 * The benchmark client: phases (one per concurrency level), closed-loop workers or Poisson arrivals
 * behind a semaphore, request naming and lengths, timeouts, retries and SSE heartbeat counting. Not
 * thread-safe.
 */
final class Client {
  private final SimulationSettings settings;
  private final WorkloadSettings workload;
  private final ClientSettings clientSettings;
  private final EventQueue events;
  private final Network network;
  private final SimObserver observer;
  private final SplittableRandom lengths;
  private final SplittableRandom ids;
  private final ArrayDeque<Attempt> queue = new ArrayDeque<>();
  private final long timeoutUs;
  private final long heartbeatUs;
  private int phase = -1;
  private int concurrency;
  private String prefix = "";
  private int issued;
  private int open;
  private int active;
  private long globalIndex;

  Client(
      SimulationSettings settings,
      EventQueue events,
      Network network,
      SimObserver observer,
      SplittableRandom lengths,
      SplittableRandom ids) {
    this.settings = settings;
    this.workload = settings.workload();
    this.clientSettings = settings.client();
    this.events = events;
    this.network = network;
    this.observer = observer;
    this.lengths = lengths;
    this.ids = ids;
    this.timeoutUs = Math.round(clientSettings.timeoutS() * 1e6);
    this.heartbeatUs = Math.round(clientSettings.heartbeatS() * 1e6);
  }

  void startPhase(long nowUs) {
    phase++;
    concurrency = workload.concurrency().get(phase);
    prefix = prefixFor(phase);
    issued = 0;
    open = 0;
    active = 0;
    observer.phaseStarted(phase, concurrency, nowUs);
    if (workload.arrival() == ArrivalMode.CLOSED) {
      for (int worker = 0; worker < Math.min(concurrency, workload.requests()); worker++) {
        issue(nowUs);
      }
    } else {
      issue(nowUs);
    }
  }

  private String prefixFor(int phase) {
    if (!clientSettings.idPrefix().isEmpty()) {
      return clientSettings.idPrefix();
    }
    // like one `vllm bench serve` run per level: prefix bench-<8 hex>-
    // (docs/formats/clients.md#vllm-bench-serve)
    long bits = Ids.mix(settings.seed() * 31 + phase);
    return "bench-" + Ids.hex(bits, 8) + "-";
  }

  /** A new client request; with Poisson arrivals also schedules the next one. */
  void issue(long nowUs) {
    boolean custom = !clientSettings.idPrefix().isEmpty();
    int prompt = tokens(workload.promptTokens().sample(lengths), workload.maxModelLen() - 1);
    int output = tokens(workload.outputTokens().sample(lengths), workload.maxModelLen() - prompt);
    String id =
        clientSettings.ids() == IdScheme.UUID
            ? Ids.uuid(ids.nextLong(), ids.nextLong())
            : prefix + (custom ? globalIndex : issued);
    Attempt.Request request =
        new Attempt.Request(
            id,
            clientSettings.ids() != IdScheme.NONE,
            phase,
            issued,
            concurrency,
            globalIndex < workload.warmupRequests(),
            prompt,
            output);
    globalIndex++;
    issued++;
    open++;
    Attempt attempt = new Attempt(request, 1, ids.nextLong());
    attempt.issuedUs = nowUs;
    if (workload.arrival() == ArrivalMode.CLOSED) {
      send(attempt, nowUs);
    } else {
      if (concurrency == 0 || active < concurrency) {
        active++;
        send(attempt, nowUs);
      } else {
        queue.addLast(attempt);
      }
      if (issued < workload.requests()) {
        double gapS = -StrictMath.log(1.0 - lengths.nextDouble()) / workload.ratePerSecond();
        events.add(nowUs + Math.max(1, Math.round(gapS * 1e6)), Kind.ISSUE, null);
      }
    }
  }

  private static int tokens(double sample, int max) {
    return (int) Math.max(1, Math.min(max, Math.round(sample)));
  }

  private void send(Attempt attempt, long nowUs) {
    attempt.sentUs = nowUs;
    network.sample(attempt);
    attempt.arrivalDueUs = nowUs + network.uplinkUs(attempt, nowUs);
    if (network.gateway()) {
      attempt.gatewayStartUs = nowUs + network.clientUplinkUs(attempt, nowUs);
    }
    events.add(attempt.arrivalDueUs, Kind.SERVER_ARRIVAL, attempt);
    if (timeoutUs > 0) {
      events.add(nowUs + timeoutUs, Kind.CLIENT_TIMEOUT, attempt);
    }
  }

  /** The attempt's last token reached the client. */
  void done(Attempt attempt, long nowUs) {
    if (attempt.clientDone) {
      return; // the client had given up already
    }
    attempt.clientDone = true;
    attempt.finalAttempt = true;
    attempt.clientEndUs = nowUs;
    report(attempt, nowUs);
    observer.clientDone(attempt);
    requestDone(nowUs);
  }

  /** The client gives up on the attempt; the server learns it one uplink delay later. */
  void timeout(Attempt attempt, long nowUs) {
    if (attempt.clientDone) {
      return;
    }
    attempt.clientDone = true;
    attempt.timedOut = true;
    attempt.clientEndUs = nowUs;
    attempt.finalAttempt = attempt.attempt > clientSettings.retries();
    if (attempt.clientFirstTokenUs > nowUs) {
      attempt.clientFirstTokenUs = -1; // still on its way when the client gave up
    }
    report(attempt, nowUs);
    if (attempt.serverEndUs < 0) {
      // the disconnect travels behind the request on the same connection
      long noticeUs = Math.max(nowUs + network.uplinkUs(attempt, nowUs), attempt.arrivalDueUs);
      events.add(noticeUs, Kind.SERVER_ABORT, attempt);
    }
    observer.clientDone(attempt);
    if (attempt.finalAttempt) {
      requestDone(nowUs);
    } else {
      long backoffUs = Math.round(clientSettings.retryBackoffMs() * 1000);
      events.add(nowUs + backoffUs, Kind.RETRY, attempt);
    }
  }

  /** Sends the next attempt of a timed-out request; it keeps the request's client slot. */
  void retry(Attempt previous, long nowUs) {
    Attempt attempt = new Attempt(previous.request(), previous.attempt + 1, ids.nextLong());
    attempt.issuedUs = nowUs;
    send(attempt, nowUs);
  }

  /** What the client file will say: heartbeats a naive client took for tokens change it. */
  private void report(Attempt attempt, long nowUs) {
    attempt.heartbeats = heartbeats(attempt, nowUs);
    long firstUs = attempt.clientFirstTokenUs;
    int tokens = attempt.timedOut ? 0 : attempt.generated;
    if (clientSettings.countsHeartbeats() && attempt.heartbeats > 0) {
      long beatSentUs = attempt.serverArrivalUs + heartbeatUs;
      long beatUs = beatSentUs + network.downlinkUs(attempt, beatSentUs);
      firstUs = firstUs < 0 ? beatUs : Math.min(firstUs, beatUs);
      tokens += attempt.timedOut ? 0 : attempt.heartbeats;
    }
    attempt.reportedTtftUs = firstUs < 0 ? -1 : firstUs - attempt.issuedUs;
    attempt.reportedOutputTokens = tokens;
  }

  /** SSE comments sent every heartbeat interval after arrival until the first token (or now). */
  private int heartbeats(Attempt attempt, long nowUs) {
    if (heartbeatUs == 0 || attempt.serverArrivalUs < 0) {
      return 0;
    }
    long untilUs = attempt.firstTokenUs >= 0 ? attempt.firstTokenUs : nowUs;
    long span = untilUs - attempt.serverArrivalUs - 1;
    int beats = span <= 0 ? 0 : (int) (span / heartbeatUs);
    if (beats > 0 && attempt.timedOut) {
      // only those that reached the client before it gave up
      long lastSentUs = attempt.serverArrivalUs + beats * heartbeatUs;
      while (beats > 0 && lastSentUs + network.downlinkUs(attempt, lastSentUs) > nowUs) {
        beats--;
        lastSentUs -= heartbeatUs;
      }
    }
    return beats;
  }

  /** A client request is over: its slot goes to the next one. */
  private void requestDone(long nowUs) {
    open--;
    if (workload.arrival() == ArrivalMode.CLOSED) {
      if (issued < workload.requests()) {
        issue(nowUs);
      }
    } else {
      active--;
      if (!queue.isEmpty()) {
        active++;
        send(queue.pollFirst(), nowUs);
      }
    }
    if (issued == workload.requests() && open == 0 && phase + 1 < workload.concurrency().size()) {
      events.add(nowUs + Math.round(workload.phaseGapS() * 1e6), Kind.PHASE_START, null);
    }
  }
}
