package dev.tokentrace.simulator.output;

import dev.tokentrace.simulator.RequestView;

/**
 * The latency components of one completed attempt, in microseconds, defined exactly as the
 * attribution formulas of docs/design.md#attribution define them, so a perfect attributor reading
 * the engine's per-request source and the client file computes these numbers:
 *
 * <pre>
 * client_ttft = client_queue + network_ttft + queue + prefill
 * client_e2e  = client_queue + network      + queue + prefill + decode
 * </pre>
 *
 * <p>Here network_ttft is the uplink delay plus the first token's downlink delay, and network the
 * uplink plus the last token's downlink; ttft and e2e are measured from when the client issued the
 * request (so they include the client's own queue).
 */
record Components(
    long clientQueueUs,
    long networkTtftUs,
    long networkUs,
    long queueUs,
    long prefillUs,
    long decodeUs,
    long ttftUs,
    long e2eUs) {

  /** Components of a completed attempt (not timed out). */
  static Components of(RequestView request) {
    long clientQueue = request.clientQueueUs();
    long queue = request.firstScheduledUs() - request.serverArrivalUs();
    long prefill = request.firstTokenUs() - request.firstScheduledUs();
    long decode = request.lastTokenUs() - request.firstTokenUs();
    long ttft = request.clientFirstTokenUs() - request.issuedUs();
    long e2e = request.clientEndUs() - request.issuedUs();
    return new Components(
        clientQueue,
        ttft - clientQueue - queue - prefill,
        e2e - clientQueue - queue - prefill - decode,
        queue,
        prefill,
        decode,
        ttft,
        e2e);
  }

  /**
   * The largest of client_queue, network, queue, prefill, decode (end-to-end view); the first in
   * that order on a tie.
   */
  String dominant() {
    String name = "client_queue";
    long largest = clientQueueUs;
    if (networkUs > largest) {
      name = "network";
      largest = networkUs;
    }
    if (queueUs > largest) {
      name = "queue";
      largest = queueUs;
    }
    if (prefillUs > largest) {
      name = "prefill";
      largest = prefillUs;
    }
    if (decodeUs > largest) {
      name = "decode";
    }
    return name;
  }
}
