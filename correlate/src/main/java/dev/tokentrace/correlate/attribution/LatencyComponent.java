package dev.tokentrace.correlate.attribution;

import java.util.Locale;

/**
 * The parts a request's client-side end-to-end time is split into (docs/design.md#attribution):
 * {@code client_e2e = client_queue + network + queue + prefill + decode}. {@link #id()} is the
 * value of {@code request_attribution.dominant} and of the summary's {@code component} column.
 */
public enum LatencyComponent {
  /** Between client and server, both ways: transport, proxies, server pre/post-processing. */
  NETWORK("network", "network"),
  /** The client's own wait before sending (its concurrency limit): the load generator's queue. */
  CLIENT_QUEUE("client_queue", "queueing (client)"),
  /** Waiting in the server's scheduler queue before the first forward pass. */
  QUEUE("queue", "queueing (server)"),
  /** Prompt processing up to the first token. */
  PREFILL("prefill", "prefill"),
  /** Generating the tokens after the first. */
  DECODE("decode", "decode");

  private final String id;
  private final String label;

  LatencyComponent(String id, String label) {
    this.id = id;
    this.label = label;
  }

  /** Stable lower-case id used in SQL and CSV. */
  public String id() {
    return id;
  }

  /** Human label for reports. */
  public String label() {
    return label;
  }

  /**
   * The component with this id.
   *
   * @throws IllegalArgumentException listing the ids when there is none
   */
  public static LatencyComponent fromId(String id) {
    String wanted = id.strip().toLowerCase(Locale.ROOT);
    for (LatencyComponent component : values()) {
      if (component.id.equals(wanted)) {
        return component;
      }
    }
    throw new IllegalArgumentException(
        "unknown latency component '"
            + id
            + "' (known: network, client_queue, queue, prefill, decode)");
  }
}
