package dev.tokentrace.simulator;

/**
 * Mutable state of one in-flight attempt. The client side sets the client fields, {@link Scheduler}
 * the server fields. Lives only while the attempt is in flight, so memory stays bounded by the
 * number of requests in flight. Not thread-safe. (Long only because it implements the many getters
 * of {@link RequestView}.)
 */
final class Attempt implements RequestView {
  private static final long[] NO_TIMES = new long[0];

  final String clientId;
  final boolean sendsId;
  final long nonce;
  final int attempt;
  final int phase;
  final int index;
  final int concurrency;
  final boolean warmup;
  final int promptTokens;
  final int outputTokens;

  long issuedUs;
  long sentUs = -1;
  long uplinkBaseUs;
  long downlinkBaseUs;
  long gatewayUplinkUs;
  long gatewayDownlinkUs;
  long gatewayStartUs = -1;
  long arrivalDueUs = -1;
  long serverSeq = -1;
  long serverArrivalUs = -1;
  long firstScheduledUs = -1;
  long firstTokenUs = -1;
  long lastTokenUs = -1;
  long serverEndUs = -1;
  long clientFirstTokenUs = -1;
  long clientEndUs = -1;
  long clientLastTokenUs = -1;
  long reportedTtftUs = -1;
  long firstStep = -1;
  long lastStep = -1;
  int reportedOutputTokens;
  int heartbeats;
  boolean serverAborted;
  boolean timedOut;
  boolean clientDone;
  boolean finalAttempt;

  long[] tokenTimes = NO_TIMES;
  int tokenCount;

  // scheduler state
  int cachedTokens = -1;
  int generated;
  int computed;
  int prefillTarget;
  int blocks;
  int preemptions;
  int stepTokens;
  boolean stepPrefill;
  boolean inServer;

  Attempt(Request request, int attempt, long nonce) {
    this.clientId = request.clientId();
    this.sendsId = request.sendsId();
    this.nonce = nonce;
    this.attempt = attempt;
    this.phase = request.phase();
    this.index = request.index();
    this.concurrency = request.concurrency();
    this.warmup = request.warmup();
    this.promptTokens = request.promptTokens();
    this.outputTokens = request.outputTokens();
    this.prefillTarget = promptTokens;
  }

  /** What all attempts of one client request share. */
  record Request(
      String clientId,
      boolean sendsId,
      int phase,
      int index,
      int concurrency,
      boolean warmup,
      int promptTokens,
      int outputTokens) {}

  Request request() {
    return new Request(
        clientId, sendsId, phase, index, concurrency, warmup, promptTokens, outputTokens);
  }

  boolean inPrefill() {
    return computed < prefillTarget;
  }

  @Override
  public String clientId() {
    return clientId;
  }

  @Override
  public boolean sendsId() {
    return sendsId;
  }

  @Override
  public long nonce() {
    return nonce;
  }

  @Override
  public long serverSeq() {
    return serverSeq;
  }

  @Override
  public int attempt() {
    return attempt;
  }

  @Override
  public boolean finalAttempt() {
    return finalAttempt;
  }

  @Override
  public int index() {
    return index;
  }

  @Override
  public int phase() {
    return phase;
  }

  @Override
  public int concurrency() {
    return concurrency;
  }

  @Override
  public boolean warmup() {
    return warmup;
  }

  @Override
  public int promptTokens() {
    return promptTokens;
  }

  @Override
  public int cachedTokens() {
    return Math.max(cachedTokens, 0);
  }

  @Override
  public int outputTokens() {
    return outputTokens;
  }

  @Override
  public int generatedTokens() {
    return generated;
  }

  @Override
  public int preemptions() {
    return preemptions;
  }

  @Override
  public long issuedUs() {
    return issuedUs;
  }

  @Override
  public long sentUs() {
    return sentUs;
  }

  @Override
  public long serverArrivalUs() {
    return serverArrivalUs;
  }

  @Override
  public long firstScheduledUs() {
    return firstScheduledUs;
  }

  @Override
  public long firstTokenUs() {
    return firstTokenUs;
  }

  @Override
  public long lastTokenUs() {
    return lastTokenUs;
  }

  @Override
  public long firstScheduledStep() {
    return firstStep;
  }

  @Override
  public long lastTokenStep() {
    return lastStep;
  }

  @Override
  public long serverEndUs() {
    return serverEndUs;
  }

  @Override
  public boolean serverAborted() {
    return serverAborted;
  }

  @Override
  public long clientFirstTokenUs() {
    return clientFirstTokenUs;
  }

  @Override
  public long clientEndUs() {
    return clientEndUs;
  }

  @Override
  public boolean timedOut() {
    return timedOut;
  }

  @Override
  public long reportedTtftUs() {
    return reportedTtftUs;
  }

  @Override
  public int reportedOutputTokens() {
    return reportedOutputTokens;
  }

  void recordToken(long timeUs) {
    if (tokenCount == tokenTimes.length) {
      tokenTimes =
          java.util.Arrays.copyOf(tokenTimes, Math.max(16, Math.min(outputTokens, tokenCount * 2)));
    }
    tokenTimes[tokenCount++] = timeUs;
  }

  @Override
  public long[] clientTokenTimesUs() {
    return java.util.Arrays.copyOf(tokenTimes, tokenCount);
  }

  @Override
  public long gatewayStartUs() {
    return gatewayStartUs;
  }

  @Override
  public long gatewayUplinkUs() {
    return gatewayUplinkUs;
  }

  @Override
  public long gatewayDownlinkUs() {
    return gatewayDownlinkUs;
  }

  @Override
  public int heartbeats() {
    return heartbeats;
  }
}
