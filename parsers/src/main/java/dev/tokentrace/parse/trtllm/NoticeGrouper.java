package dev.tokentrace.parse.trtllm;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.ServerNotice;
import dev.tokentrace.event.ServerNotice.Kind;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.parse.ParseOutput;
import java.time.Instant;
import java.util.Locale;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Folds an error and what follows it — a Python traceback (chained ones included), the exception
 * line, a C++ {@code what():} and native stack frames ({@code 1 0x7f.. lib.so(+0x..)}) — into one
 * {@code server_notice}, emitted when the next unrelated line arrives or at the end of the source.
 * The notice's message is the error's message plus the final exception line; its kind becomes
 * {@code oom} when the exception says so ({@code torch.OutOfMemoryError: CUDA out of memory}). The
 * lines folded in are reported as ignored ({@value #RULE}). Not thread-safe.
 */
final class NoticeGrouper {
  static final String RULE = "trtllm: traceback";

  private static final Pattern EXCEPTION =
      Pattern.compile(
          "^(?:[A-Za-z_][\\w.]*(?:Error|Exception|Exit|Interrupt|Failure)(?::.*)?"
              + "|terminate called (?:after throwing|recursively).*|Aborted \\(core dumped\\).*)$");
  private static final Pattern NATIVE_FRAME = Pattern.compile("^\\d{1,4}\\s+0x[0-9a-fA-F]+\\b.*");

  private final String instance;
  private @Nullable SourcePosition position;
  private @Nullable Instant ts;
  private String level = "ERROR";
  private Kind kind = Kind.ERROR;
  private String message = "";
  private @Nullable String exception;
  private int exceptionRank = -1;

  NoticeGrouper(String instance) {
    this.instance = instance;
  }

  boolean pending() {
    return position != null;
  }

  /** Starts a group with an error line; a group still open is emitted first. */
  void start(
      SourcePosition at,
      @Nullable Instant time,
      String level,
      Kind kind,
      String text,
      ParseOutput sink) {
    flush(sink);
    this.position = at;
    this.ts = time;
    this.level = level;
    this.kind = kind;
    this.message = text;
    this.exception = null;
    this.exceptionRank = -1;
  }

  /** Starts a group with a line that is itself part of a traceback (no error line before it). */
  void startWith(String line, SourcePosition at, @Nullable Instant time, ParseOutput sink) {
    start(at, time, "ERROR", Kind.ERROR, "", sink);
    attach(line);
  }

  /** A traceback line, exception line, C++ {@code what()} or native frame. */
  static boolean isContinuation(String line) {
    char first = line.charAt(0);
    if (first == ' ' || first == '\t') {
      return true;
    }
    if (first >= '0' && first <= '9') {
      return NATIVE_FRAME.matcher(line).matches();
    }
    return line.startsWith("Traceback (most recent call last)")
        || line.startsWith("During handling of the above exception")
        || line.startsWith("The above exception was the direct cause")
        || isException(line);
  }

  static boolean isException(String line) {
    char first = line.charAt(0);
    boolean letter =
        (first >= 'A' && first <= 'Z') || (first >= 'a' && first <= 'z') || first == '_';
    return letter && EXCEPTION.matcher(line).matches();
  }

  void attach(String line) {
    String text = line.strip();
    int rank = exceptionRank(line, text);
    if (rank < 0) {
      return;
    }
    if (rank >= exceptionRank) {
      // equal ranks: the last one wins, as a chained traceback ends with the outermost exception
      exception = text.startsWith("what():") ? text.substring("what():".length()).strip() : text;
      exceptionRank = rank;
    }
    if (NoticeRules.isOom(text.toLowerCase(Locale.ROOT))) {
      kind = Kind.OOM;
    }
  }

  /**
   * How much a line says about the failure: a C++ {@code what()} most, then a Python exception
   * line, then {@code terminate called ...}, then {@code Aborted (core dumped)}; -1 for lines that
   * are not exception lines (stack frames, code).
   */
  private static int exceptionRank(String line, String text) {
    if (text.startsWith("what():")) {
      return 3;
    }
    if (isIndented(line) || !isException(line)) {
      return -1;
    }
    if (text.startsWith("Aborted")) {
      return 0;
    }
    return text.startsWith("terminate called") ? 1 : 2;
  }

  void flush(ParseOutput sink) {
    SourcePosition at = position;
    if (at == null) {
      return;
    }
    String text = message;
    if (exception != null && !text.contains(exception)) {
      text = text.isEmpty() ? exception : text + " | " + exception;
    }
    if (text.isEmpty()) {
      text = "traceback without exception line";
    }
    sink.event(new ServerNotice(Engine.TRTLLM, instance, ts, at, level, kind, text));
    position = null;
    exception = null;
    exceptionRank = -1;
  }

  private static boolean isIndented(String line) {
    char first = line.charAt(0);
    return first == ' ' || first == '\t';
  }
}
