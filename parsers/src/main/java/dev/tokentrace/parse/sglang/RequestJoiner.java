package dev.tokentrace.parse.sglang;

import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.parse.ParseOutput;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * Reads request lines through {@link RequestLine} and, when one is {@link
 * RequestLine.Outcome#INCOMPLETE incomplete}, keeps it as a {@link PendingRequest} and joins the
 * following physical lines to it (v0.4.1 – post6 raw newlines,
 * docs/formats/sglang.md#request-lines). Not thread-safe.
 */
final class RequestJoiner {
  private final RequestLine requestLine;
  private @Nullable PendingRequest pending;

  RequestJoiner(RequestLine requestLine) {
    this.requestLine = requestLine;
  }

  /** True when a request line at {@code start} was taken (emitted, rejected or kept pending). */
  boolean read(
      String line, int start, @Nullable Instant ts, SourcePosition position, ParseOutput sink) {
    RequestLine.Outcome outcome = requestLine.parse(line, start, ts, position, sink, false);
    if (outcome == RequestLine.Outcome.INCOMPLETE) {
      pending = new PendingRequest(line, start, ts, position);
    }
    return outcome != RequestLine.Outcome.NOT_REQUEST;
  }

  boolean isPending() {
    return pending != null;
  }

  /** Joins a continuation line (prompt text: ignored by name) and tries the record again. */
  void continueWith(String line, SourcePosition position, ParseOutput sink) {
    PendingRequest request = pending;
    if (request == null) {
      throw new IllegalStateException("no pending request");
    }
    boolean room = request.add(line);
    sink.ignored(position, NoiseRules.REQUEST_CONTINUATION);
    RequestLine.Outcome outcome =
        requestLine.parse(
            request.text(), request.bodyStart(), request.ts(), request.position(), sink, !room);
    if (outcome != RequestLine.Outcome.INCOMPLETE) {
      pending = null;
    }
  }

  /** The record ends here (an SGLang line arrived, or the source ended): read what there is. */
  void flush(ParseOutput sink) {
    PendingRequest request = pending;
    if (request != null) {
      pending = null;
      requestLine.parse(
          request.text(), request.bodyStart(), request.ts(), request.position(), sink, true);
    }
  }
}
