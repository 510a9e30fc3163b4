package dev.tokentrace.report.model;

/**
 * The parts a request's end-to-end time is split into, as the report names them (ids as in the
 * attribution's {@code component} column), in the report's order. The report's own copy of the
 * attribution's list, so the model depends on no other module.
 */
public enum ComponentKind {
  NETWORK("network", "network"),
  CLIENT_QUEUE("client_queue", "queueing (client)"),
  QUEUE("queue", "queueing (server)"),
  PREFILL("prefill", "prefill"),
  DECODE("decode", "decode");

  private final String id;
  private final String label;

  ComponentKind(String id, String label) {
    this.id = id;
    this.label = label;
  }

  public String id() {
    return id;
  }

  public String label() {
    return label;
  }

  /**
   * @throws IllegalArgumentException when no component has this id
   */
  public static ComponentKind fromId(String id) {
    for (ComponentKind kind : values()) {
      if (kind.id.equals(id)) {
        return kind;
      }
    }
    throw new IllegalArgumentException(
        "unknown latency component '"
            + id
            + "' (known: network, client_queue, queue, prefill, decode)");
  }
}
