package dev.tokentrace.parse.sglang;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.ServerNotice;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.parse.ParseOutput;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * A notice whose text may continue on following lines (a traceback, an indented detail), kept open
 * until a line that does not continue it arrives or the source ends. The emitted message is the
 * first line, plus the exception line that ends a traceback ({@code ValueError: ...}) or its last
 * line, so one record says both where and what. A traceback that mentions an out-of-memory error
 * becomes kind {@code oom}. Not thread-safe.
 */
final class PendingNotice {
  private static final int MAX_HEAD = 300;
  private static final int MAX_TAIL = 200;

  private final String instance;
  private NoticeRules.@Nullable Rule rule;
  private @Nullable SourcePosition source;
  private @Nullable Instant ts;
  private String head = "";
  private @Nullable String tail;
  private boolean tailIsException;
  private boolean oom;

  PendingNotice(String instance) {
    this.instance = instance;
  }

  boolean isOpen() {
    return rule != null;
  }

  /** Whether {@code line} (unprefixed, not a known SGLang line) continues the open notice. */
  boolean continuesWith(String line) {
    if (rule == null) {
      return false;
    }
    if (rule.continuation() == NoticeRules.Continuation.TRACEBACK) {
      return true;
    }
    return !line.isEmpty() && (line.charAt(0) == ' ' || line.charAt(0) == '\t');
  }

  /** Opens a notice (emit the previous one first). */
  void open(
      NoticeRules.Rule newRule, @Nullable Instant when, SourcePosition position, String text) {
    rule = newRule;
    ts = when;
    source = position;
    head = EventText.cap(EventText.withoutRequest(text.strip()), MAX_HEAD);
    tail = null;
    tailIsException = false;
    oom = newRule.kind() == ServerNotice.Kind.OOM;
  }

  /** Adds a continuation line. */
  void fold(String line) {
    String text = line.strip();
    if (text.isEmpty()) {
      return;
    }
    oom |= NoticeRules.mentionsOom(text, 0);
    boolean exception = NoticeRules.isExceptionLine(text, 0);
    // the last exception line names the error; later lines (CUDA hints) only if there is none
    if (exception || !tailIsException) {
      tail = EventText.cap(EventText.withoutRequest(text), MAX_TAIL);
      tailIsException = exception;
    }
  }

  /** Emits the open notice, if any, and closes it. */
  void emit(ParseOutput sink) {
    NoticeRules.Rule open = rule;
    SourcePosition position = source;
    if (open == null || position == null) {
      return;
    }
    ServerNotice.Kind kind = oom ? ServerNotice.Kind.OOM : open.kind();
    String level = oom ? "ERROR" : open.level();
    String message = tail == null || tail.equals(head) ? head : head + " | " + tail;
    sink.event(new ServerNotice(Engine.SGLANG, instance, ts, position, level, kind, message));
    rule = null;
    source = null;
  }
}
