package dev.tokentrace.simulator;

/**
 * One attempt of one client request as the model sees it. Times are microseconds since the run
 * started, {@code -1} when the moment has not happened (or never will). Valid while the observer
 * callback that received it runs; an attempt's values only grow more complete over time.
 */
public interface RequestView {
  /** The ID the client knows the request by; with {@link IdScheme#NONE} not sent to the server. */
  String clientId();

  /** Whether the server receives {@link #clientId()} (X-Request-Id header, SGLang rid). */
  boolean sendsId();

  /** 64 random bits of this attempt, for server-made IDs, engine suffixes and trace IDs. */
  long nonce();

  /** 0-based order in which attempts reached the server; -1 before. */
  long serverSeq();

  /** 1-based attempt number; greater than 1 for retries. */
  int attempt();

  /** True when no further attempt follows this one (set when the client is done with it). */
  boolean finalAttempt();

  /** 0-based index of the client request within its phase, in the order the client issued them. */
  int index();

  /** 0-based phase (concurrency level) of the run. */
  int phase();

  /** The phase's concurrency: workers (closed loop) or client semaphore size, 0 = unbounded. */
  int concurrency();

  boolean warmup();

  int promptTokens();

  /** Prompt tokens served from the prefix cache at first admission. */
  int cachedTokens();

  /** Output tokens the request generates when it completes. */
  int outputTokens();

  /** Output tokens generated so far. */
  int generatedTokens();

  /** Times the server preempted (and later recomputed) this attempt. */
  int preemptions();

  /** When the client issued the request (before any client-side queue). */
  long issuedUs();

  /** When the client sent it (after its semaphore). */
  long sentUs();

  long serverArrivalUs();

  long firstScheduledUs();

  long firstTokenUs();

  long lastTokenUs();

  /** Index of the step that first scheduled the attempt; -1 before. */
  long firstScheduledStep();

  /** Index of the step that produced the attempt's latest token; -1 before. */
  long lastTokenStep();

  /** When the server finished or aborted the attempt. */
  long serverEndUs();

  boolean serverAborted();

  /** When the first real token reached the client; -1 if it never did before the client gave up. */
  long clientFirstTokenUs();

  /** When the client was done: last token received, or gave up. */
  long clientEndUs();

  /** True when the client gave up on this attempt (timeout). */
  boolean timedOut();

  /** TTFT the client file reports (from {@link #issuedUs()}); differs with counted heartbeats. */
  long reportedTtftUs();

  /** Output tokens the client file reports; includes heartbeats a naive client counted. */
  int reportedOutputTokens();

  /**
   * When each token reached the client, in order; empty unless {@link
   * ClientSettings#recordTokenTimes()} and the attempt completed.
   */
  long[] clientTokenTimesUs();

  /** Heartbeats the client received before the first token. */
  int heartbeats();

  /**
   * When the request reached the gateway (client send + the client's uplink leg); -1 without a
   * gateway (docs/formats/gateways.md#simulated-gateway).
   */
  default long gatewayStartUs() {
    return -1;
  }

  /** The gateway's one-way delay to the engine drawn for this attempt (0 without a gateway). */
  default long gatewayUplinkUs() {
    return 0;
  }

  /** The gateway's one-way delay from the engine drawn for this attempt (0 without a gateway). */
  default long gatewayDownlinkUs() {
    return 0;
  }

  /**
   * When the last token passed the gateway on its way to the client: its server time plus the
   * gateway's downlink; -1 without a gateway or before the last token.
   */
  default long gatewayEndUs() {
    return gatewayStartUs() < 0 || lastTokenUs() < 0 ? -1 : lastTokenUs() + gatewayDownlinkUs();
  }

  default long clientQueueUs() {
    return sentUs() - issuedUs();
  }
}
