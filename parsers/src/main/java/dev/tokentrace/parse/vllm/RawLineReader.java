package dev.tokentrace.parse.vllm;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.parse.ParseOutput;
import dev.tokentrace.parse.Rejection;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Lines without a vLLM record header (docs/formats/vllm.md#multi-line-records,
 * docs/formats/vllm.md#process-prefix, docs/formats/vllm.md#uvicorn-lines): Python tracebacks
 * printed to stderr, which join the open error of the same process or start one of their own;
 * uvicorn lines; Python's logging-error blocks; and noise under named rules ({@link RawLines}).
 * Anything else is a rejection. Raw lines carry no time: notices and stats they produce take the
 * last logged time. Not thread-safe.
 */
final class RawLineReader {
  private final String instance;
  private final NoticeGroup notices;
  private final LoggingErrorBlock loggingError = new LoggingErrorBlock();
  private boolean afterPythonWarning;

  private final UnknownFields unknown;

  private final java.time.ZoneId zone;

  RawLineReader(
      String instance, java.time.ZoneId zone, NoticeGroup notices, UnknownFields unknown) {
    this.instance = instance;
    this.zone = zone;
    this.notices = notices;
    this.unknown = unknown;
  }

  /** A record line arrived: an indented line after it is no longer a warning's source line. */
  void recordSeen() {
    afterPythonWarning = false;
  }

  /**
   * Reads a line whose text after its process prefixes starts at {@code bodyStart}.
   *
   * @param lastTs the time of the last record line, for what this line produces
   * @param collectorTs the time a log collector wrote before this line, if any: a headerless stats
   *     message takes it before {@code lastTs}
   */
  void read(
      String text,
      int bodyStart,
      SourcePosition position,
      @Nullable Instant lastTs,
      @Nullable Instant collectorTs,
      ParseOutput sink) {
    String body = RawLines.withoutRank(bodyStart == 0 ? text : text.substring(bodyStart));
    String process = bodyStart == 0 ? null : text.substring(1, text.lastIndexOf(')', bodyStart));
    boolean afterWarning = afterPythonWarning;
    afterPythonWarning = false;
    Origin origin = new Origin(position, lastTs, process);
    if (loggingError.isOpen() || body.startsWith(LoggingErrorBlock.START)) {
      loggingErrorLine(body, origin, sink);
    } else if (body.isBlank()) {
      sink.ignored(position, RawLines.BLANK);
    } else if (RawLines.isBanner(body)) {
      sink.ignored(position, RawLines.BANNER);
    } else if (RawLines.uvicornLevel(body) != null) {
      uvicorn(body, origin, sink);
    } else if (Tracebacks.startsTraceback(body)) {
      tracebackStart(body, origin, sink);
    } else if (Tracebacks.isTracebackLine(body)) {
      tracebackLine(body, afterWarning, origin, sink);
    } else if (kserve(body, position, sink)) {
      return;
    } else if (StatsLine.matches(body) && notices.openError() == null) {
      // a stats message without the logging header (docs/formats/vllm-wild.md#headerless-stats)
      Instant ts = collectorTs != null ? collectorTs : lastTs;
      StatsLine.parse(body, instance, ts, position, unknown, sink, text);
    } else {
      noise(text, body, position, sink);
    }
  }

  /**
   * A KServe logger line: {@code kserve.trace} timings and KServe's own messages are ignored by
   * named rules; a vLLM stats message under KServe's format is read with KServe's time.
   */
  private boolean kserve(String body, SourcePosition position, ParseOutput sink) {
    KServeLine line = KServeLine.match(body, zone);
    if (line == null) {
      return false;
    }
    if (line.isTrace()) {
      sink.ignored(position, KServeLine.TRACE_RULE);
    } else if (StatsLine.matches(line.message)) {
      StatsLine.parse(line.message, instance, line.ts, position, unknown, sink, body);
    } else {
      sink.ignored(position, KServeLine.LOG_RULE);
    }
    return true;
  }

  /** Where a raw line came from and the time it inherits. */
  private record Origin(SourcePosition position, @Nullable Instant ts, @Nullable String process) {}

  private void loggingErrorLine(String body, Origin origin, ParseOutput sink) {
    if (!loggingError.isOpen()) {
      loggingError.open();
      sink.ignored(origin.position(), LoggingErrorBlock.RULE);
      return;
    }
    LoggingErrorBlock.Context context =
        new LoggingErrorBlock.Context(instance, origin.position(), origin.ts());
    LoggingErrorBlock.Result result = loggingError.take(body, context);
    if (result == null) {
      sink.ignored(origin.position(), LoggingErrorBlock.RULE);
    } else if (result.stats() != null) {
      sink.event(result.stats());
    } else {
      String reason = Objects.requireNonNull(result.problem());
      sink.rejected(Rejection.of(origin.position(), Engine.VLLM, reason, body));
    }
  }

  private void uvicorn(String body, Origin origin, ParseOutput sink) {
    Level level = Objects.requireNonNull(RawLines.uvicornLevel(body));
    String message = RawLines.uvicornMessage(body);
    if (RawLines.isAccess(message)) {
      sink.ignored(origin.position(), RawLines.UVICORN_ACCESS);
    } else if (level.isError()) {
      // e.g. "ERROR:    Exception in ASGI application", then a raw traceback
      notices.start(
          new PendingNotice(origin.position(), origin.ts(), level, origin.process(), message),
          sink);
    } else {
      sink.ignored(origin.position(), RawLines.UVICORN_LIFECYCLE);
    }
  }

  /**
   * {@code Traceback (most recent call last):} or {@code Process EngineCore_DP0:} printed by Python
   * itself: part of the open error of the same process, or the start of an error of its own.
   */
  private void tracebackStart(String body, Origin origin, ParseOutput sink) {
    PendingNotice open = notices.openError();
    if (open != null && Objects.equals(open.process(), origin.process())) {
      open.add(body);
      sink.ignored(origin.position(), VllmLineParser.TRACEBACK);
      return;
    }
    String label =
        Tracebacks.isProcessLine(body)
            ? body.substring(0, body.length() - 1)
            : Tracebacks.isCppTerminate(body) ? body : "";
    PendingNotice started =
        new PendingNotice(origin.position(), origin.ts(), Level.ERROR, origin.process(), label);
    started.add(body);
    notices.start(started, sink);
  }

  private void tracebackLine(String body, boolean afterWarning, Origin origin, ParseOutput sink) {
    PendingNotice open = notices.openError();
    if (open != null) {
      open.add(body);
      sink.ignored(origin.position(), VllmLineParser.TRACEBACK);
    } else if (afterWarning && Tracebacks.isIndented(body)) {
      // the source line Python prints under a warning: "  warnings.warn("
      afterPythonWarning = true;
      sink.ignored(origin.position(), RawLines.PYTHON_WARNING);
    } else if (Tracebacks.isExceptionLine(body)) {
      notices.start(
          new PendingNotice(origin.position(), origin.ts(), Level.ERROR, origin.process(), body),
          sink);
    } else {
      sink.ignored(origin.position(), VllmLineParser.TRACEBACK);
    }
  }

  private void noise(String text, String body, SourcePosition position, ParseOutput sink) {
    String rule = RawLines.noiseRule(body);
    PendingNotice open = notices.openError();
    if (rule != null) {
      afterPythonWarning = rule.equals(RawLines.PYTHON_WARNING);
      sink.ignored(position, rule);
    } else if (open != null && open.hasTraceback()) {
      // free text after a traceback continues the exception message (CUDA error hints)
      open.add(body);
      sink.ignored(position, VllmLineParser.TRACEBACK);
    } else {
      String reason =
          text.indexOf(Ascii.REPLACEMENT) >= 0
              ? VllmHeader.INVALID_UTF8
              : VllmLineParser.UNRECOGNIZED;
      sink.rejected(Rejection.of(position, Engine.VLLM, reason, text));
    }
  }
}
