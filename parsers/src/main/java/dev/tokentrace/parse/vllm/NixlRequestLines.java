package dev.tokentrace.parse.vllm;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.KvTransfer;
import dev.tokentrace.parse.ParseOutput;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The decode server's DEBUG lines that time one request's KV-cache read
 * (docs/formats/pd.md#vllm-nixl-debug-lines): the NIXL worker's {@code Remote agent <engine>
 * available, calling _read_blocks ... for req <id>} (the read is posted) and the scheduler's {@code
 * Finished recving KV transfer for request <id>} (the engine learns it is done). Together they make
 * one {@code kv_transfer} row of that request (side decode, source kind {@value
 * KvTransfer#NIXL_DEBUG}): end − first start. Only lines timed below the second make a row — a
 * collector's or layout's time (docs/formats/layouts.md#which-time), since vLLM's own header has 1
 * s resolution; a pair timed by the header alone is ignored by name ({@value #COARSE}). A request
 * whose read failed ({@code NIXL transfer failed for request <id>}, an error that stays a notice)
 * makes no row. Not thread-safe: one instance per source.
 */
final class NixlRequestLines {
  static final String START = "Remote agent ";
  static final String START_MARK = "_read_blocks";
  static final String START_ID = " for req ";
  static final String END = "Finished recving KV transfer for request ";
  static final String SENT = "Finished sending KV transfer for request ";
  static final String FAILED = "NIXL transfer failed for request ";

  static final String HELD = "vllm: nixl read start";
  static final String COARSE = "vllm: nixl read without sub-second time";
  static final String UNPAIRED = "vllm: nixl read end without its start";
  static final String SENDING = "vllm: nixl send end";

  /** Reads in flight kept at most (a server that never logs their ends cannot grow it further). */
  private static final int MAX_OPEN = 100_000;

  private final RequestLines requests;
  private final Map<String, Start> open = new LinkedHashMap<>();
  private final Set<String> failed = new HashSet<>();

  private record Start(Instant ts, boolean fine) {}

  /** Keys IDs as the source's request lines taught {@code requests} (the engine suffix). */
  NixlRequestLines(RequestLines requests) {
    this.requests = requests;
  }

  /** Whether the message (after any engine prefix) is one of these lines' own record. */
  static boolean startsRecord(String message) {
    int start = OtherRecords.enginePrefixEnd(message);
    return message.startsWith(START, start)
        || message.startsWith(END, start)
        || message.startsWith(SENT, start);
  }

  /**
   * True when the record is a read's start or end (then it was handled). {@code fineTs} is the
   * line's collector or layout time, or null when only vLLM's header timed it.
   */
  boolean handle(RecordLine line, @Nullable Instant fineTs, ParseOutput sink) {
    String message = line.message();
    int from = OtherRecords.enginePrefixEnd(message);
    if (message.startsWith(START, from)) {
      int at = message.lastIndexOf(START_ID);
      if (at < 0 || message.indexOf(START_MARK, from) < 0) {
        return false;
      }
      String id = message.substring(at + START_ID.length()).strip();
      if (id.isEmpty()) {
        line.reject(sink, "nixl read line: no request id");
        return true;
      }
      Instant ts = fineTs != null ? fineTs : line.ts();
      // with several TP ranks every worker posts its own read: the first post starts the transfer
      open.putIfAbsent(id, new Start(ts, fineTs != null));
      if (open.size() > MAX_OPEN) {
        open.remove(open.keySet().iterator().next());
      }
      failed.remove(id);
      line.ignore(sink, HELD);
      return true;
    }
    if (message.startsWith(SENT, from)) {
      line.ignore(sink, SENDING);
      return true;
    }
    if (!message.startsWith(END, from)) {
      return false;
    }
    String id = message.substring(from + END.length()).strip();
    Start start = open.remove(id);
    boolean readFailed = failed.remove(id);
    if (start == null || readFailed) {
      line.ignore(sink, UNPAIRED);
      return true;
    }
    if (!start.fine() || fineTs == null) {
      line.ignore(sink, COARSE);
      return true;
    }
    double ms = Math.max(0, Duration.between(start.ts(), fineTs).toNanos() / 1e6);
    sink.event(
        new KvTransfer(
            Engine.VLLM,
            line.instance(),
            fineTs,
            line.position(),
            id,
            requests.engineCoreKey(id),
            "decode",
            null,
            null,
            1,
            ms,
            null,
            null,
            null,
            null,
            null,
            KvTransfer.NIXL_DEBUG));
    return true;
  }

  /**
   * Notes a failed read ({@code NIXL transfer failed for request <id> ...}, an ERROR line that the
   * caller keeps as a notice): the request's later end makes no row.
   */
  void noteFailure(String message) {
    int from = OtherRecords.enginePrefixEnd(message);
    if (!message.startsWith(FAILED, from)) {
      return;
    }
    int idStart = from + FAILED.length();
    int idEnd = message.indexOf(' ', idStart);
    String id = idEnd < 0 ? message.substring(idStart) : message.substring(idStart, idEnd);
    if (open.remove(id) != null) {
      failed.add(id);
    }
  }
}
