package dev.tokentrace.simulator.pd;

/**
 * One simulated P/D request, every time on the simulation's clock (µs from the start): the client's
 * issue and send, the prefill server's arrival, first schedule and first token, the decode server's
 * arrival, the end of the KV transfer, its first schedule, first and last token, and what the
 * client saw.
 */
record PdRequest(
    int index,
    String id,
    int promptTokens,
    int outputTokens,
    long issuedUs,
    long clientQueueUs,
    int prefillServer,
    long prefillArrivalUs,
    long prefillStartUs,
    long prefillFirstTokenUs,
    int decodeServer,
    long decodeArrivalUs,
    long kvReadyUs,
    long kvBytes,
    long decodeStartUs,
    long decodeFirstTokenUs,
    long decodeLastTokenUs,
    long clientFirstTokenUs,
    long clientEndUs) {

  long prefillQueueUs() {
    return prefillStartUs - prefillArrivalUs;
  }

  long prefillUs() {
    return prefillFirstTokenUs - prefillStartUs;
  }

  long kvTransferUs() {
    return kvReadyUs - decodeArrivalUs;
  }

  long decodeQueueUs() {
    return decodeStartUs - kvReadyUs;
  }

  long decodeUs() {
    return decodeLastTokenUs - decodeStartUs;
  }

  long e2eUs() {
    return clientEndUs - issuedUs;
  }

  /** Everything outside the client's queue and the servers' phases: transport and the proxy. */
  long networkUs() {
    return e2eUs()
        - clientQueueUs
        - prefillQueueUs()
        - prefillUs()
        - kvTransferUs()
        - decodeQueueUs()
        - decodeUs();
  }
}
