package dev.tokentrace.parse.vllm;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.RequestAborted;
import dev.tokentrace.event.RequestArrived;
import dev.tokentrace.event.RequestFinished;
import dev.tokentrace.event.RequestKeys;
import dev.tokentrace.parse.ParseOutput;
import org.jspecify.annotations.Nullable;

/**
 * The per-request lines of docs/formats/vllm.md#request-lines: {@code Received request} →
 * request_arrived; {@code Added request} → learns the engine suffix ({@link RequestIds}), and is
 * request_arrived only where no {@code Received request} named the request
 * (docs/formats/vllm-wild.md#added-request); V0 {@code Finished request} and {@code Generated
 * response} → request_finished; {@code Aborted request}, {@code Aborted request(s) a,b}, {@code
 * Request X aborted/failed (...)} and {@code Rejecting request X (server shutting down)} →
 * request_aborted. Prompt and output text are skipped, never kept. Not thread-safe: holds
 * per-source state.
 */
final class RequestLines {
  static final int MAX_ID = 1024;
  static final String ADDED_RULE = "vllm: added request";
  private static final String ADDED = "Added request ";
  private static final String FINISHED = "Finished request ";
  private static final String ABORTED = "Aborted request ";
  private static final String ABORTED_MANY = "Aborted request(s) ";
  private static final String REQUEST = "Request ";
  private static final String REJECTING = "Rejecting request ";
  private static final String SHUTTING_DOWN = " (server shutting down)";

  private final RequestIds ids = new RequestIds();
  private final ResponseLines responses = new ResponseLines();

  /** The last DEBUG {@code Request X details} line, read by the {@code Received} line after it. */
  private ReceivedRequestLine.@Nullable Parts details;

  /** True when the message was a request line (and has been reported). */
  /** The request key of an ID only the engine core logs ({@link RequestIds#engineCoreKey}). */
  String engineCoreKey(String id) {
    return ids.engineCoreKey(id);
  }

  boolean handle(RecordLine line, ParseOutput sink) {
    String message = line.message();
    if (message.isEmpty()) {
      return false;
    }
    switch (message.charAt(0)) {
      case 'R':
        return received(line, sink) || outcome(line, sink) || rejecting(line, sink);
      case 'A':
        return added(line, sink) || abortedMany(line, sink) || aborted(line, sink);
      case 'F':
        return finished(line, sink);
      case 'G':
        return responses.handle(line, sink);
      default:
        return false;
    }
  }

  private boolean received(RecordLine line, ParseOutput sink) {
    String message = line.message();
    if (!message.startsWith(ReceivedRequestLine.PREFIX)) {
      return false;
    }
    int idEnd = ReceivedRequestLine.idEnd(message);
    if (idEnd < 0) {
      line.rejectRedacted(sink, "request line: malformed", ReceivedRequestLine.PREFIX.length());
      return true;
    }
    ReceivedRequestLine.Parts parts = ReceivedRequestLine.read(message, idEnd);
    String problem = idProblem(parts.id());
    if (problem != null) {
      line.rejectRedacted(sink, problem, idEnd);
      return true;
    }
    Integer promptTokens = parts.promptTokens();
    if (promptTokens == null && details != null && details.id().equals(parts.id())) {
      promptTokens = details.promptTokens();
    }
    details = null;
    String key = ids.received(parts.id());
    sink.event(
        new RequestArrived(
            Engine.VLLM,
            line.instance(),
            line.ts(),
            line.position(),
            parts.id(),
            key,
            promptTokens,
            parts.maxTokens()));
    return true;
  }

  /**
   * {@code Added request X.}: the engine admitted X. It is the arrival evidence when no {@code
   * Received request} line of this source named X (log excerpts, wrappers that log their own
   * arrival line); otherwise it only teaches the engine suffix
   * (docs/formats/vllm-wild.md#added-request).
   */
  private boolean added(RecordLine line, ParseOutput sink) {
    String id = idBetween(line, sink, ADDED);
    if (id != null) {
      String key = ids.added(id);
      if (key == null) {
        line.ignore(sink, ADDED_RULE);
      } else {
        sink.event(
            new RequestArrived(
                Engine.VLLM, line.instance(), line.ts(), line.position(), id, key, null, null));
      }
    }
    return line.message().startsWith(ADDED);
  }

  private boolean finished(RecordLine line, ParseOutput sink) {
    String id = idBetween(line, sink, FINISHED);
    if (id != null) {
      // V0 AsyncLLMEngine only: V0 never adds engine suffixes
      sink.event(
          new RequestFinished(
              Engine.VLLM,
              line.instance(),
              line.ts(),
              line.position(),
              id,
              RequestKeys.normalize(id),
              null,
              null));
    }
    return line.message().startsWith(FINISHED);
  }

  private boolean aborted(RecordLine line, ParseOutput sink) {
    String id = idBetween(line, sink, ABORTED);
    if (id != null) {
      abort(line, sink, id, "aborted");
    }
    return line.message().startsWith(ABORTED);
  }

  /** {@code Aborted request(s) a,b.}: ad0297d11 (2025-08-15) joins the IDs with a bare comma. */
  private boolean abortedMany(RecordLine line, ParseOutput sink) {
    String list = idBetween(line, sink, ABORTED_MANY);
    if (list == null) {
      return line.message().startsWith(ABORTED_MANY);
    }
    String[] parts = list.split(",");
    for (String part : parts) {
      if (part.isBlank()) {
        line.reject(sink, "request line: empty id");
        return true;
      }
    }
    for (String part : parts) {
      abort(line, sink, part.strip(), "aborted");
    }
    return true;
  }

  /** V1 {@code AsyncLLM.generate} outcome lines (2b05b8ce6, 2025-04-16 on) and DEBUG details. */
  private boolean outcome(RecordLine line, ParseOutput sink) {
    String message = line.message();
    if (!message.startsWith(REQUEST)) {
      return false;
    }
    int detailsAt = message.indexOf(ReceivedRequestLine.DETAILS, REQUEST.length());
    if (detailsAt > REQUEST.length()) {
      details = ReceivedRequestLine.readDetails(message, detailsAt);
      line.ignore(sink, "vllm: request details");
      return true;
    }
    if (message.endsWith(" aborted.")) {
      return abortChecked(line, sink, REQUEST.length(), message.length() - 9, "aborted");
    }
    int failed = message.indexOf(" failed", REQUEST.length());
    String reason = failed > REQUEST.length() ? failureReason(message, failed + 7) : null;
    return reason != null && abortChecked(line, sink, REQUEST.length(), failed, reason);
  }

  /**
   * The failure kind, without the detail text after {@code ": "} (an exception message that may
   * quote the input): {@code failed}, {@code failed (engine dead)}, {@code failed (bad request)},
   * {@code failed (input error)}, {@code failed due to <ExceptionClass>}; null for other text.
   */
  private static @Nullable String failureReason(String message, int at) {
    String tail = message.substring(at);
    if (tail.equals(".")) {
      return "failed";
    }
    if (!tail.endsWith(".")) {
      return null;
    }
    for (String kind : new String[] {"engine dead", "bad request", "input error"}) {
      String label = " (" + kind + ")";
      if (tail.equals(label + ".") || tail.startsWith(label + ": ")) {
        return "failed (" + kind + ")";
      }
    }
    if (tail.startsWith(" due to ")) {
      int end = Ascii.identifierEnd(tail, 8);
      return end > 8 ? "failed due to " + tail.substring(8, end) : "failed due to error";
    }
    return null;
  }

  private boolean rejecting(RecordLine line, ParseOutput sink) {
    String message = line.message();
    if (!message.startsWith(REJECTING)) {
      return false;
    }
    int end = message.lastIndexOf(SHUTTING_DOWN);
    boolean shape =
        end > REJECTING.length()
            && (message.length() == end + SHUTTING_DOWN.length()
                || message.length() == end + SHUTTING_DOWN.length() + 1 && message.endsWith("."));
    if (!shape) {
      return false;
    }
    return abortChecked(line, sink, REJECTING.length(), end, "server shutting down");
  }

  private boolean abortChecked(RecordLine line, ParseOutput sink, int from, int to, String reason) {
    String id = line.message().substring(from, to);
    String problem = idProblem(id);
    if (problem != null) {
      line.reject(sink, problem);
    } else {
      abort(line, sink, id, reason);
    }
    return true;
  }

  private void abort(RecordLine line, ParseOutput sink, String id, String reason) {
    sink.event(
        new RequestAborted(
            Engine.VLLM,
            line.instance(),
            line.ts(),
            line.position(),
            id,
            ids.engineSideKey(id),
            reason));
  }

  /**
   * The ID between {@code prefix} and the final period of {@code "<prefix>%s."}; null (with the
   * line rejected when it has the prefix) when there is no such ID.
   */
  private static @Nullable String idBetween(RecordLine line, ParseOutput sink, String prefix) {
    String message = line.message();
    if (!message.startsWith(prefix)) {
      return null;
    }
    if (!message.endsWith(".")) {
      line.reject(sink, "request line: truncated");
      return null;
    }
    String id = message.substring(prefix.length(), message.length() - 1);
    String problem = idProblem(id);
    if (problem != null) {
      line.reject(sink, problem);
      return null;
    }
    return id;
  }

  static @Nullable String idProblem(String id) {
    if (id.isBlank()) {
      return "request line: empty id";
    }
    if (id.length() > MAX_ID) {
      return "request line: id too long";
    }
    if (id.indexOf(Ascii.REPLACEMENT) >= 0) {
      return "request line: invalid utf-8 in id";
    }
    return null;
  }
}
