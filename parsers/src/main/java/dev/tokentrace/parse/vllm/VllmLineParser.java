package dev.tokentrace.parse.vllm;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.ServerNotice;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.parse.LineParser;
import dev.tokentrace.parse.ParseSettings;
import dev.tokentrace.parse.ParseSink;
import dev.tokentrace.parse.Rejection;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Parses everything vLLM writes, V0 (2023) to V1 (2026), per formats/vllm.md: record lines with
 * every header generation and process prefix, stats lines, request lines, iteration lines, startup
 * facts, warnings and errors with their tracebacks folded into one notice, uvicorn and other noise
 * by named rules, and OpenTelemetry Collector trace export lines. Not thread-safe: one instance per
 * source, because records span lines, the log has no year, and request IDs are learned across
 * lines.
 *
 * <p>A record line is {@code (APIServer pid=3646) INFO 05-19 10:13:11 [loggers.py:271] Engine 000:
 * Avg prompt throughput: ...}. Consecutive lines with the same process prefix, level, time and
 * file:line are one record ({@code NewLineFormatter} repeats the header on every line of a
 * multi-line message, §1.2) unless the line is itself a stats or request line (two engines log
 * their stats lines from the same place in the same second). Where the source keeps the {@code \r}
 * that ends every continued line, a line after one without it starts a new record even with the
 * same header; where there are none, only traceback text continues a WARNING or ERROR record.
 */
public final class VllmLineParser implements LineParser {
  static final String UNRECOGNIZED = "unrecognized line";
  static final String CONTINUATION = "vllm: record continuation";
  static final String TRACEBACK = "vllm: traceback";
  static final String OTHER_RECORD = "vllm: other record";

  private final ParseSettings settings;
  private final LogClock clock;
  private final RequestLines requests = new RequestLines();
  private final LoggingErrorBlock loggingError = new LoggingErrorBlock();
  private @Nullable PendingNotice pending;
  private @Nullable VllmHeader lastHeader;
  private String lastLine = "";
  private boolean lastEndedWithCr;
  private boolean sawCr;
  private @Nullable Instant lastTs;
  private boolean afterPythonWarning;

  public VllmLineParser(ParseSettings settings) {
    this.settings = requireNonNull(settings, "settings is null");
    this.clock = new LogClock(settings.zone(), settings.startYear());
  }

  @Override
  public void parse(String line, SourcePosition position, ParseSink sink) {
    boolean endedWithCr = LineCleaner.endsWithCarriageReturn(line);
    String text = LineCleaner.clean(line);
    if (OtlpTraceLine.isJsonObject(text)) {
      OtlpTraceLine.parse(text, position, settings.instance(), sink);
      return;
    }
    int bodyStart = ProcessPrefix.skipAll(text, 0);
    VllmHeader header = VllmHeader.find(text, bodyStart);
    if (header == null) {
      raw(text, bodyStart, position, sink);
    } else {
      record(text, header, endedWithCr, position, sink);
    }
  }

  @Override
  public void finish(ParseSink sink) {
    flush(sink);
  }

  ParseSettings settings() {
    return settings;
  }

  private void record(
      String text,
      VllmHeader header,
      boolean endedWithCr,
      SourcePosition position,
      ParseSink sink) {
    Instant ts =
        header.problem() == null
            ? clock.instant(
                header.month(), header.day(), header.hour(), header.minute(), header.second())
            : null;
    if (ts == null) {
      String reason = header.problem() == null ? VllmHeader.BAD_TIMESTAMP : header.problem();
      sink.rejected(Rejection.of(position, Engine.VLLM, reason, redacted(text, header)));
      return;
    }
    String message = text.substring(header.msgStart());
    boolean continuation = isContinuation(text, header, message);
    lastHeader = header;
    lastLine = text;
    lastEndedWithCr = endedWithCr;
    sawCr |= endedWithCr;
    lastTs = ts;
    afterPythonWarning = false;
    if (continuation) {
      if (pending != null) {
        pending.add(message);
      }
      sink.ignored(position, Tracebacks.isTracebackLine(message) ? TRACEBACK : CONTINUATION);
      return;
    }
    flush(sink);
    dispatch(new RecordLine(text, header, message, position, ts, settings.instance()), sink);
  }

  /**
   * Whether a line with the same header as the previous record line continues that record. Once the
   * source has shown a carriage return (it keeps them), the previous line's {@code \r} says it (a
   * file with CRLF on every line then over-merges same-header lines, except records of their own
   * kind). Without carriage returns, a line is a continuation unless it is a record of its own
   * kind, and a WARNING or ERROR line only when it is traceback text (or follows traceback text),
   * so that the same warning logged twice in one second stays two notices.
   */
  private boolean isContinuation(String text, VllmHeader header, String message) {
    VllmHeader previous = lastHeader;
    if (previous == null || !header.sameAs(text, previous, lastLine) || startsOwnRecord(message)) {
      return false;
    }
    if (sawCr) {
      return lastEndedWithCr;
    }
    PendingNotice open = pending;
    return !(header.level() == Level.WARNING || header.level().isError())
        || message.isBlank()
        || Tracebacks.isTracebackLine(message)
        || (open != null && open.hasTraceback());
  }

  /** Messages that are records of their own even right after a record with the same header. */
  private static boolean startsOwnRecord(String message) {
    return StatsLine.matches(message)
        || message.startsWith(ReceivedRequestLine.PREFIX)
        || message.startsWith("Added request ")
        || message.startsWith("Finished request ")
        || message.startsWith("Aborted request")
        || message.startsWith("Request ")
        || message.startsWith("Rejecting request ")
        || message.startsWith(ResponseLines.PREFIX)
        || message.startsWith(IterationLine.PREFIX)
        || message.startsWith(PrefixCacheLine.PREFIX)
        || isPreemption(message);
  }

  private void dispatch(RecordLine line, ParseSink sink) {
    String message = line.message();
    if (StatsLine.matches(message)) {
      StatsLine.parse(line, sink);
    } else if (requests.handle(line, sink)) {
      return;
    } else if (message.startsWith(PrefixCacheLine.PREFIX)) {
      PrefixCacheLine.parse(line, sink);
    } else if (message.startsWith(IterationLine.PREFIX)) {
      IterationLine.parse(line, sink);
    } else if (isPreemption(message)) {
      notice(line, ServerNotice.Kind.PREEMPTION, sink);
    } else if (OtherRecords.handle(line, sink)) {
      return;
    } else if (line.level() == Level.WARNING || line.level().isError()) {
      String process = line.header().process(line.text());
      pending = new PendingNotice(line.position(), line.ts(), line.level(), process, message);
    } else {
      line.ignore(sink, OTHER_RECORD);
    }
  }

  /**
   * V0 scheduler ({@code Sequence group X is preempted by PreemptionMode.RECOMPUTE mode because
   * ...}, e7c46b952, 2024-05-13; formats/vllm.md §5), printed at the 1st, 51st, 101st...
   */
  private static boolean isPreemption(String message) {
    return message.startsWith("Sequence group ") && message.contains(" is preempted by ");
  }

  private void notice(RecordLine line, ServerNotice.Kind kind, ParseSink sink) {
    sink.event(
        new ServerNotice(
            Engine.VLLM,
            settings.instance(),
            line.ts(),
            line.position(),
            line.level().name(),
            kind,
            line.message()));
  }

  private void raw(String text, int bodyStart, SourcePosition position, ParseSink sink) {
    String body = RawLines.withoutRank(bodyStart == 0 ? text : text.substring(bodyStart));
    String process = bodyStart == 0 ? null : text.substring(1, text.lastIndexOf(')', bodyStart));
    boolean afterWarning = afterPythonWarning;
    afterPythonWarning = false;
    if (loggingError.isOpen() || body.startsWith(LoggingErrorBlock.START)) {
      loggingErrorLine(body, position, sink);
    } else if (body.isBlank()) {
      sink.ignored(position, RawLines.BLANK);
    } else if (RawLines.uvicornLevel(body) != null) {
      uvicorn(body, process, position, sink);
    } else if (Tracebacks.startsTraceback(body)) {
      tracebackStart(body, process, position, sink);
    } else if (Tracebacks.isTracebackLine(body)) {
      tracebackLine(body, afterWarning, position, sink);
    } else {
      noise(text, body, position, sink);
    }
  }

  private void loggingErrorLine(String body, SourcePosition position, ParseSink sink) {
    if (!loggingError.isOpen()) {
      loggingError.open();
      sink.ignored(position, LoggingErrorBlock.RULE);
      return;
    }
    LoggingErrorBlock.Context context =
        new LoggingErrorBlock.Context(settings.instance(), position, lastTs);
    LoggingErrorBlock.Result result = loggingError.take(body, context);
    if (result == null) {
      sink.ignored(position, LoggingErrorBlock.RULE);
    } else if (result.stats() != null) {
      sink.event(result.stats());
    } else {
      sink.rejected(
          Rejection.of(position, Engine.VLLM, Objects.requireNonNull(result.problem()), body));
    }
  }

  private void uvicorn(
      String body, @Nullable String process, SourcePosition position, ParseSink sink) {
    Level level = Objects.requireNonNull(RawLines.uvicornLevel(body));
    String message = RawLines.uvicornMessage(body);
    if (RawLines.isAccess(message)) {
      sink.ignored(position, RawLines.UVICORN_ACCESS);
    } else if (level.isError()) {
      // e.g. "ERROR:    Exception in ASGI application", then a raw traceback
      flush(sink);
      pending = new PendingNotice(position, lastTs, level, process, message);
    } else {
      sink.ignored(position, RawLines.UVICORN_LIFECYCLE);
    }
  }

  /**
   * {@code Traceback (most recent call last):} or {@code Process EngineCore_DP0:} printed by Python
   * itself: part of the open error of the same process, or the start of an error of its own.
   */
  private void tracebackStart(
      String body, @Nullable String process, SourcePosition position, ParseSink sink) {
    PendingNotice open = pending;
    if (open != null && open.isError() && Objects.equals(open.process(), process)) {
      open.add(body);
      sink.ignored(position, TRACEBACK);
      return;
    }
    flush(sink);
    String label = Tracebacks.isProcessLine(body) ? body.substring(0, body.length() - 1) : "";
    PendingNotice started = new PendingNotice(position, lastTs, Level.ERROR, process, label);
    started.add(body);
    pending = started;
  }

  private void tracebackLine(
      String body, boolean afterWarning, SourcePosition position, ParseSink sink) {
    PendingNotice open = pending;
    if (open != null && open.isError()) {
      open.add(body);
      sink.ignored(position, TRACEBACK);
    } else if (afterWarning && Tracebacks.isIndented(body)) {
      // the source line Python prints under a warning: "  warnings.warn("
      afterPythonWarning = true;
      sink.ignored(position, RawLines.PYTHON_WARNING);
    } else if (Tracebacks.isExceptionLine(body)) {
      flush(sink);
      pending = new PendingNotice(position, lastTs, Level.ERROR, null, body);
    } else {
      sink.ignored(position, TRACEBACK);
    }
  }

  private void noise(String text, String body, SourcePosition position, ParseSink sink) {
    String rule = RawLines.noiseRule(body);
    PendingNotice open = pending;
    if (rule != null) {
      afterPythonWarning = rule.equals(RawLines.PYTHON_WARNING);
      sink.ignored(position, rule);
    } else if (open != null && open.isError() && open.hasTraceback()) {
      // free text after a traceback continues the exception message (CUDA error hints)
      open.add(body);
      sink.ignored(position, TRACEBACK);
    } else {
      String reason = text.indexOf(Ascii.REPLACEMENT) >= 0 ? VllmHeader.INVALID_UTF8 : UNRECOGNIZED;
      sink.rejected(Rejection.of(position, Engine.VLLM, reason, text));
    }
  }

  private void flush(ParseSink sink) {
    PendingNotice open = pending;
    if (open != null) {
      pending = null;
      sink.event(open.toNotice(settings.instance()));
    }
  }

  /** The line for a rejection, without the message when it may carry prompt or output text. */
  private static String redacted(String text, VllmHeader header) {
    String message = text.substring(header.msgStart());
    boolean userText =
        message.startsWith(ReceivedRequestLine.PREFIX)
            || message.startsWith("Request ")
            || message.startsWith(ResponseLines.PREFIX);
    return userText ? text.substring(0, header.msgStart()) + "[redacted]" : text;
  }
}
