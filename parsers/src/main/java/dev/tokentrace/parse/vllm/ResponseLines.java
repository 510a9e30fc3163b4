package dev.tokentrace.parse.vllm;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.RequestFinished;
import dev.tokentrace.event.RequestKeys;
import dev.tokentrace.parse.ParseOutput;
import dev.tokentrace.parse.PythonRepr;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * {@code Generated response %s%s: output: %r, output_token_ids: %s, finish_reason: %s} with {@code
 * --enable-log-outputs} (8e8e0b6af, 2025-08-07; docs/formats/vllm.md#request-lines). The output
 * text is skipped. A non-streaming line is a request_finished with its finish reason and the length
 * of its token-id list. Streaming writes one {@code (streaming delta)} line per chunk (ignored, but
 * the last delta's real finish reason is remembered) and one {@code (streaming complete)} line
 * whose finish reason is the placeholder {@code streaming_complete} and whose output may be {@code
 * <streaming_complete: N tokens>}; that line becomes the request_finished. With {@code
 * --max-log-len N} the token-id list is cut to N ids, so the output token count is then at most N.
 */
final class ResponseLines {
  static final String PREFIX = "Generated response ";
  private static final String OUTPUT = ": output: ";
  private static final String DELTA = " (streaming delta)";
  private static final String COMPLETE = " (streaming complete)";
  private static final String TOKEN_IDS = ", output_token_ids: ";
  private static final String FINISH = ", finish_reason: ";
  private static final String COUNT_OPEN = "<streaming_complete: ";
  private static final int MAX_PENDING = 4096;

  /** Finish reasons of streaming deltas, by request ID, until the complete line arrives. */
  private final Map<String, String> deltaFinish =
      new LinkedHashMap<>() {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
          return size() > MAX_PENDING;
        }
      };

  /** True when the message was a response line (and has been reported). */
  boolean handle(RecordLine line, ParseOutput sink) {
    String message = line.message();
    if (!message.startsWith(PREFIX)) {
      return false;
    }
    int output = message.indexOf(OUTPUT, PREFIX.length());
    if (output < 0) {
      return false;
    }
    boolean delta = message.startsWith(DELTA, output - DELTA.length());
    boolean complete = message.startsWith(COMPLETE, output - COMPLETE.length());
    int idEnd = output - (delta ? DELTA.length() : complete ? COMPLETE.length() : 0);
    String id = idEnd > PREFIX.length() ? message.substring(PREFIX.length(), idEnd) : "";
    String problem = RequestLines.idProblem(id);
    if (problem != null) {
      line.rejectRedacted(sink, problem, output);
      return true;
    }
    Tail tail = readTail(message, output + OUTPUT.length());
    if (delta) {
      if (tail.finishReason() != null) {
        deltaFinish.put(id, tail.finishReason());
      }
      line.ignore(sink, "vllm: generated response delta");
      return true;
    }
    String finishReason = complete ? deltaFinish.remove(id) : tail.finishReason();
    sink.event(
        new RequestFinished(
            Engine.VLLM,
            line.instance(),
            line.ts(),
            line.position(),
            id,
            RequestKeys.normalize(id),
            tail.outputTokens(),
            finishReason));
    return true;
  }

  private record Tail(@Nullable Integer outputTokens, @Nullable String finishReason) {}

  private static Tail readTail(String message, int outputStart) {
    int cursor = PythonRepr.skipString(message, outputStart);
    if (cursor == PythonRepr.UNTERMINATED || !message.startsWith(TOKEN_IDS, cursor)) {
      return new Tail(null, null);
    }
    Integer tokens = streamedCount(message, outputStart, cursor);
    cursor += TOKEN_IDS.length();
    if (message.startsWith("None", cursor)) {
      cursor += 4;
    } else {
      int end = PythonRepr.skipBracketed(message, cursor);
      if (end == PythonRepr.UNTERMINATED || message.charAt(cursor) != '[') {
        return new Tail(null, null);
      }
      tokens = PythonRepr.countElements(message, cursor, end);
      cursor = end;
    }
    if (!message.startsWith(FINISH, cursor)) {
      return new Tail(tokens, null);
    }
    return new Tail(tokens, finishReason(message, cursor + FINISH.length()));
  }

  /** N from the placeholder output {@code '<streaming_complete: N tokens>'}, else null. */
  private static @Nullable Integer streamedCount(String message, int from, int to) {
    int digits = from + 1 + COUNT_OPEN.length();
    if (!message.startsWith(COUNT_OPEN, from + 1)) {
      return null;
    }
    int end = Ascii.digitsEnd(message, digits);
    boolean shape = message.startsWith(" tokens>", end) && end + " tokens>".length() == to - 1;
    int count = shape ? Decimals.integer(message, digits, end) : Decimals.INVALID_INT;
    return count >= 0 ? count : null;
  }

  /** The finish reason token at the end of the line: lower-case words, {@code None} is null. */
  private static @Nullable String finishReason(String message, int at) {
    String reason = message.substring(at);
    if (reason.isEmpty() || reason.length() > 32 || reason.equals("streaming_complete")) {
      return null;
    }
    for (int i = 0; i < reason.length(); i++) {
      char c = reason.charAt(i);
      if (!(c >= 'a' && c <= 'z') && c != '_') {
        return null;
      }
    }
    return reason;
  }
}
