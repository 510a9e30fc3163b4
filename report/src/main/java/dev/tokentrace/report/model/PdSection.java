package dev.tokentrace.report.model;

import java.util.List;
import org.jdbi.v3.core.mapper.reflect.JdbiConstructor;
import org.jspecify.annotations.Nullable;

/**
 * Prefill/decode disaggregation (docs/formats/pd.md#attribution): the two components only P/D
 * requests have and the transfer per pair of servers. Empty for a single-server run, whose report
 * then shows nothing of it.
 *
 * @param parts rows of report/pd_components (kv_transfer, decode_queue)
 * @param pairs rows of queries/pd_pairs
 */
public record PdSection(List<Part> parts, List<Pair> pairs, Unjoined unjoined) {
  public PdSection {
    parts = List.copyOf(parts);
    pairs = List.copyOf(pairs);
  }

  public PdSection(List<Part> parts, List<Pair> pairs) {
    this(parts, pairs, Unjoined.NONE);
  }

  public static PdSection empty() {
    return new PdSection(List.of(), List.of());
  }

  /**
   * The sentence that says how many client requests could not be joined to the P/D servers' records
   * because the proxy rewrote their IDs, and why (docs/formats/pd.md#proxy-access-log); null when
   * there are none.
   */
  public @Nullable String unjoinedNote() {
    if (unjoined.unjoinedClientRows() == 0 || unjoined.orphanPdKeys() == 0) {
      return null;
    }
    String clients =
        unjoined.unjoinedClientRows()
            + (unjoined.unjoinedClientRows() == 1 ? " client request has" : " client requests have")
            + " no server record while "
            + unjoined.orphanPdKeys()
            + " prefill/decode "
            + (unjoined.orphanPdKeys() == 1 ? "request" : "requests")
            + " on the servers have no client row: ";
    if (unjoined.proxyRows() == 0) {
      return clients
          + "the proxy sent the servers request IDs of its own (vLLM's example proxy makes a uuid"
          + " per request) and no proxy access log is loaded to map them; load it with tokentrace"
          + " clients (docs/formats/pd.md#proxy-access-log).";
    }
    return clients
        + "the proxy access log loaded ("
        + unjoined.proxyRows()
        + " lines) does not name their client IDs (a log of another period or another proxy).";
  }

  /** The one row of report/pd_unjoined. */
  public record Unjoined(long unjoinedClientRows, long orphanPdKeys, long proxyRows) {
    public static final Unjoined NONE = new Unjoined(0, 0, 0);

    @JdbiConstructor
    public Unjoined {}
  }

  /** Whether the attribution has P/D requests. */
  public boolean present() {
    return !parts.isEmpty() || !pairs.isEmpty();
  }

  /** How many included transfers are interval estimates (docs/formats/pd.md#estimate). */
  public long estimated() {
    return parts.stream().mapToLong(Part::estimated).sum();
  }

  /** What the pairs section says before its table. */
  public static final String INTRO =
      "Requests served by a prefill server and a decode server (the decode server pulled the"
          + " prompt's KV cache from the prefill server). kv transfer = the transfer; queueing"
          + " (decode) = the decode server's queued time without the transfer. Failed and expired"
          + " transfers are the decode server's, over every prefill server (vLLM's interval line"
          + " does not name the peer).";

  /**
   * The sentence that says the transfer is estimated and how (docs/formats/pd.md#estimate), or null
   * when every transfer was measured per request.
   */
  public @Nullable String estimateNote() {
    long estimated = estimated();
    if (estimated == 0) {
      return null;
    }
    long requests = parts.stream().mapToLong(Part::requests).max().orElse(0);
    return estimated
        + " of "
        + requests
        + " transfers are estimated: the decode server logged only interval aggregates (vLLM's"
        + " KV Transfer metrics line), so each interval's total transfer time (mean × transfers)"
        + " is shared among the requests first scheduled in it in proportion to their prompt"
        + " tokens, capped at the decode server's queued time; the rest is queueing (decode)."
        + " The sum of the two is exact; the split is exact only when every transfer into a"
        + " decode server runs at the same bandwidth without waiting for the link.";
  }

  /** One row of report/pd_components. */
  public record Part(
      String component,
      long requests,
      @Nullable Double p50Ms,
      @Nullable Double p90Ms,
      @Nullable Double p95Ms,
      @Nullable Double p99Ms,
      @Nullable Double meanMs,
      @Nullable Double share,
      long dominantRequests,
      long estimated) {
    @JdbiConstructor
    public Part {}

    /** The label the report prints. */
    public String label() {
      return component.equals("kv_transfer") ? "kv transfer" : "queueing (decode)";
    }
  }

  /** One row of queries/pd_pairs. */
  public record Pair(
      String prefillInstance,
      String decodeInstance,
      long requests,
      @Nullable Double kvP50Ms,
      @Nullable Double kvP95Ms,
      @Nullable Double decodeQueueP50Ms,
      long estimated,
      long failedTransfers,
      long expiredTransfers) {
    @JdbiConstructor
    public Pair {}
  }
}
