package dev.tokentrace.parse.sglang;

import dev.tokentrace.event.SourcePosition;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * A request line whose text continues on the next physical lines: v0.4.1 – v0.4.1.post6 printed
 * prompt strings without escaping (docs/formats/sglang.md#request-lines), so a prompt's newlines
 * split the log record. The lines are joined with {@code \n} until the request text is complete, an
 * SGLang line arrives or a cap is reached; the continuation lines are prompt text, so they are
 * ignored by name and never rejected. Not thread-safe.
 */
final class PendingRequest {
  /** Caps keep a runaway (a truncated record followed by junk) from growing without bound. */
  private static final int MAX_LINES = 10_000;

  private static final int MAX_CHARS = 16 * 1024 * 1024;

  private final StringBuilder text;
  private final int bodyStart;
  private final @Nullable Instant ts;
  private final SourcePosition position;
  private int lines = 1;

  PendingRequest(String line, int bodyStart, @Nullable Instant ts, SourcePosition position) {
    this.text = new StringBuilder(line);
    this.bodyStart = bodyStart;
    this.ts = ts;
    this.position = position;
  }

  /** Appends a physical line; false when the record is over its caps (then read it as it is). */
  boolean add(String line) {
    text.append('\n').append(line);
    lines++;
    return lines < MAX_LINES && text.length() < MAX_CHARS;
  }

  String text() {
    return text.toString();
  }

  int bodyStart() {
    return bodyStart;
  }

  @Nullable Instant ts() {
    return ts;
  }

  SourcePosition position() {
    return position;
  }
}
