package dev.tokentrace.parse.vllm;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.parse.ParseOutput;
import dev.tokentrace.parse.Rejection;
import java.time.Instant;

/**
 * One vLLM record line as the matchers see it: the cleaned text, its header, the message after the
 * header, where it came from and its instant.
 */
record RecordLine(
    String text,
    VllmHeader header,
    String message,
    SourcePosition position,
    Instant ts,
    String instance) {

  Level level() {
    return header.level();
  }

  void ignore(ParseOutput sink, String rule) {
    sink.ignored(position, rule);
  }

  void reject(ParseOutput sink, String reason) {
    sink.rejected(Rejection.of(position, Engine.VLLM, reason, text));
  }

  /**
   * Rejects a line that may carry prompt or output text (user data): the excerpt keeps the header
   * and the first {@code keep} characters of the message only.
   */
  void rejectRedacted(ParseOutput sink, String reason, int keep) {
    int end = header.msgStart() + Math.min(Math.max(keep, 0), message.length());
    String excerpt = text.substring(0, end) + " [redacted]";
    sink.rejected(Rejection.of(position, Engine.VLLM, reason, excerpt));
  }
}
