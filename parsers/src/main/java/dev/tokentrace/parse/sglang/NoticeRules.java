package dev.tokentrace.parse.sglang;

import dev.tokentrace.event.ServerNotice;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Decides which messages are {@code server_notice}s. SGLang's own lines carry no level
 * (docs/formats/sglang.md#log-prefix, docs/formats/sglang.md#what-the-logs-give), so severity comes
 * from the text: the scheduler's retraction and OOM messages
 * (docs/formats/sglang.md#other-scheduler-lines), exceptions and tracebacks, GC warnings, and
 * uvicorn's {@code WARNING:} / {@code ERROR:} lines. Stateless.
 */
final class NoticeRules {
  /** How a notice continues on following unprefixed lines. */
  enum Continuation {
    /** Only indented lines continue it. */
    INDENTED,
    /** A traceback: every unprefixed line that is not a known SGLang line continues it. */
    TRACEBACK
  }

  /** What a message is. */
  record Rule(ServerNotice.Kind kind, String level, Continuation continuation) {}

  static final String TRACEBACK_START = "Traceback (most recent call last):";

  private static final Rule PREEMPTION =
      new Rule(ServerNotice.Kind.PREEMPTION, "WARNING", Continuation.INDENTED);
  private static final Rule OOM = new Rule(ServerNotice.Kind.OOM, "ERROR", Continuation.TRACEBACK);
  private static final Rule ERROR =
      new Rule(ServerNotice.Kind.ERROR, "ERROR", Continuation.TRACEBACK);
  private static final Rule WARNING =
      new Rule(ServerNotice.Kind.WARNING, "WARNING", Continuation.INDENTED);

  /** {@code ValueError: ...}, {@code torch.OutOfMemoryError: ...}, {@code KeyboardInterrupt}. */
  private static final Pattern EXCEPTION_LINE =
      Pattern.compile("^[A-Za-z_][\\w.]*(?:Error|Exception|Interrupt|Exit)(?::|$)");

  private NoticeRules() {}

  /** The rule for a prefixed SGLang message starting at {@code start}, or null. */
  static @Nullable Rule forMessage(String line, int start) {
    Rule own = sglangMessage(line, start);
    if (own != null) {
      return own;
    }
    if (line.startsWith("ERROR:", start) || isCppTerminate(line, start)) {
      return mentionsOom(line, start) ? OOM : ERROR;
    }
    if (line.startsWith("WARNING:", start) || startsWithIgnoreCase(line, start, "warning")) {
      return WARNING;
    }
    if (line.indexOf(TRACEBACK_START, start) >= 0
        || startsWithIgnoreCase(line, start, "error")
        || startsWithIgnoreCase(line, start, "exception")
        || isExceptionLine(line, start)) {
      return mentionsOom(line, start) ? OOM : ERROR;
    }
    return mentionsOom(line, start) ? OOM : null;
  }

  /**
   * Messages only SGLang writes, recognized with or without a prefix (≤ v0.2.13 had none): the
   * scheduler's retraction and decode-OOM messages, its exception and child-failure messages, and
   * the GC warning.
   */
  static @Nullable Rule sglangMessage(String line, int start) {
    if (line.startsWith("KV cache pool is full. Retract requests.", start)
        || line.startsWith("Decode out of memory happened", start)
        || line.startsWith("decode out of memory happened", start)) {
      // retraction frees KV cache by sending running requests back to the queue
      // (docs/formats/sglang.md#other-scheduler-lines)
      return PREEMPTION;
    }
    if (line.startsWith("LONG GARBAGE COLLECTION DETECTED", start)) {
      return WARNING;
    }
    if (line.startsWith("Scheduler hit an exception", start)
        || line.startsWith("Received sigquit", start)) {
      return mentionsOom(line, start) ? OOM : ERROR;
    }
    return null;
  }

  /**
   * The rule for an unprefixed line that starts a Python traceback or is an exception line, or
   * null; such lines are SGLang's only in an SGLang log, which the caller decides.
   */
  static @Nullable Rule traceback(String line) {
    if (line.startsWith(TRACEBACK_START) || isExceptionLine(line, 0) || isCppTerminate(line, 0)) {
      return mentionsOom(line, 0) ? OOM : ERROR;
    }
    return null;
  }

  /**
   * {@code terminate called after throwing an instance of 'T'} (or {@code recursively}): a C++
   * exception; its {@code what(): …} line follows and is folded in
   * (docs/formats/layouts.md#cpp-what).
   */
  static boolean isCppTerminate(String line, int start) {
    return line.startsWith("terminate called after throwing", start)
        || line.startsWith("terminate called recursively", start);
  }

  static boolean isExceptionLine(String line, int start) {
    int end = Math.min(line.length(), start + 200);
    return EXCEPTION_LINE.matcher(line).region(start, end).lookingAt();
  }

  static boolean mentionsOom(String line, int start) {
    return line.indexOf("OutOfMemoryError", start) >= 0
        || containsIgnoreCase(line, start, "out of memory");
  }

  private static boolean startsWithIgnoreCase(String line, int start, String word) {
    return line.regionMatches(true, start, word, 0, word.length());
  }

  private static boolean containsIgnoreCase(String line, int start, String needle) {
    int last = line.length() - needle.length();
    for (int i = start; i <= last; i++) {
      if (line.regionMatches(true, i, needle, 0, needle.length())) {
        return true;
      }
    }
    return false;
  }
}
