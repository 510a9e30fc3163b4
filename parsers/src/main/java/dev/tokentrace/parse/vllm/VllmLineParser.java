package dev.tokentrace.parse.vllm;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.ServerNotice;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.parse.CollectorClock;
import dev.tokentrace.parse.LineParser;
import dev.tokentrace.parse.ParseOutput;
import dev.tokentrace.parse.ParseSettings;
import dev.tokentrace.parse.Rejection;
import dev.tokentrace.parse.Timestamps;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * Parses everything vLLM writes, V0 (2023) to V1 (2026), per docs/formats/vllm.md: record lines
 * with every header generation and process prefix, stats lines, request lines, iteration lines,
 * startup facts, warnings and errors with their tracebacks folded into one notice, uvicorn and
 * other noise by named rules, and OpenTelemetry Collector trace export lines. Not thread-safe: one
 * instance per source, because records span lines, the log has no year, and request IDs are learned
 * across lines.
 *
 * <p>A record line is {@code (APIServer pid=3646) INFO 05-19 10:13:11 [loggers.py:271] Engine 000:
 * Avg prompt throughput: ...}. Consecutive lines with the same process prefix, level, time and
 * file:line are one record ({@code NewLineFormatter} repeats the header on every line of a
 * multi-line message, docs/formats/vllm.md#multi-line-records) unless the line is itself a stats or
 * request line (two engines log their stats lines from the same place in the same second). Where
 * the source keeps the {@code \r} that ends every continued line, a line after one without it
 * starts a new record even with the same header; where there are none, only traceback text
 * continues a WARNING or ERROR record.
 */
public final class VllmLineParser implements LineParser, CollectorClock {
  static final String UNRECOGNIZED = "unrecognized line";
  static final String CONTINUATION = "vllm: record continuation";
  static final String TRACEBACK = "vllm: traceback";
  static final String OTHER_RECORD = "vllm: other record";

  /** Request lines whose rest may hold prompt or output text. */
  private static final String[] USER_TEXT_MARKERS = {
    ReceivedRequestLine.PREFIX, ReceivedRequestLine.DETAILS, ResponseLines.PREFIX
  };

  private final ParseSettings settings;
  private final Timestamps.Local clock;
  private final RequestLines requests = new RequestLines();
  private final NoticeGroup notices;
  private final RawLineReader rawLines;
  private final UnknownFields unknown = new UnknownFields();
  private final JsonBlock json = new JsonBlock();
  private final TraceFiles traces;
  private final KvTransferLine kvTransfers = new KvTransferLine();
  private final NixlRequestLines nixlReads = new NixlRequestLines(requests);
  private @Nullable Instant collectorTs;
  private @Nullable Level wrapperLevel;
  private @Nullable VllmHeader lastHeader;
  private String lastLine = "";
  private boolean lastEndedWithCr;
  private boolean sawCr;
  private @Nullable Instant lastTs;

  public VllmLineParser(ParseSettings settings) {
    this.settings = requireNonNull(settings, "settings is null");
    this.clock = new Timestamps.Local(settings.zone(), settings.startYear());
    this.notices = new NoticeGroup(settings.instance());
    this.traces = new TraceFiles(settings.instance());
    this.rawLines = new RawLineReader(settings.instance(), settings.zone(), notices, unknown);
  }

  /** The collector's time of the next line: the time of a headerless stats message. */
  @Override
  public void collectorTime(@Nullable Instant ts) {
    collectorTs = ts;
  }

  /** A wrapper layout's level: the line is then a message body (docs/formats/layouts.md). */
  @Override
  public void wrapperLevel(@Nullable String level) {
    wrapperLevel = level == null ? null : Level.valueOf(level);
  }

  @Override
  public void parse(String line, SourcePosition position, ParseOutput sink) {
    boolean endedWithCr = LineCleaner.endsWithCarriageReturn(line);
    String text = LineCleaner.clean(line);
    if (json.active()) {
      if (json.continuesWith(text)
          && VllmHeader.find(text, ProcessPrefix.skipAll(text, 0)) == null) {
        JsonBlock.Document document = json.add(text, position, sink);
        if (document != null) {
          traces.parse(document.text(), document.position(), sink);
        }
        return;
      }
      json.abort(sink, "otlp: truncated json");
    }
    if (JsonBlock.opens(text)) {
      // pretty-printed OTLP/JSON or a Jaeger export (docs/formats/vllm-wild.md#pretty-otlp)
      json.start(text, position);
      return;
    }
    if (OtlpTraceLine.isJsonObject(text)) {
      if (DynamoRecordLine.matches(text)) {
        // NVIDIA Dynamo's JSONL records (docs/formats/dynamo.md)
        DynamoRecordLine.parse(text, position, settings.instance(), sink);
        return;
      }
      traces.parse(text, position, sink);
      return;
    }
    int bodyStart = ProcessPrefix.skipAll(text, 0);
    VllmHeader header = VllmHeader.find(text, bodyStart);
    if (header == null && wrapperLevel != null) {
      layoutRecord(text, bodyStart, wrapperLevel, position, sink);
    } else if (header == null) {
      rawLines.read(text, bodyStart, position, lastTs, collectorTs, sink);
    } else {
      record(text, header, endedWithCr, position, sink);
    }
  }

  @Override
  public void finish(ParseOutput sink) {
    json.abort(sink, "otlp: truncated json");
    notices.flush(sink);
    traces.finish();
  }

  /**
   * A line with a header continues a multi-line message only where vLLM repeats the header on every
   * line of one ({@code NewLineFormatter}: the previous line ended with {@code \r}, or, where the
   * reader dropped it, the header is the previous record line's); its text starts after it. A line
   * without one continues from after its process prefixes.
   */
  @Override
  public int continuationStart(String line) {
    String text = LineCleaner.clean(line);
    int bodyStart = ProcessPrefix.skipAll(text, 0);
    VllmHeader header = VllmHeader.find(text, bodyStart);
    // offsets into the cleaned text hold for the line only when cleaning removed no colour codes
    boolean sameOffsets = line.startsWith(text);
    if (header == null) {
      return sameOffsets ? bodyStart : 0;
    }
    VllmHeader previous = lastHeader;
    boolean repeated =
        lastEndedWithCr || (previous != null && header.sameAs(text, previous, lastLine));
    return repeated && sameOffsets ? header.msgStart() : -1;
  }

  private void record(
      String text,
      VllmHeader header,
      boolean endedWithCr,
      SourcePosition position,
      ParseOutput sink) {
    Instant ts =
        header.problem() == null
            ? clock.ofYearless(
                header.month(),
                header.day(),
                Timestamps.secondOfDay(header.hour(), header.minute(), header.second()),
                0)
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
    rawLines.recordSeen();
    if (continuation) {
      PendingNotice open = notices.open();
      if (open != null) {
        open.add(message);
      }
      sink.ignored(position, Tracebacks.isTracebackLine(message) ? TRACEBACK : CONTINUATION);
      return;
    }
    notices.flush(sink);
    dispatch(new RecordLine(text, header, message, position, ts, settings.instance()), sink);
  }

  /**
   * A message body that a wrapper layout printed with its own level and time instead of vLLM's
   * header (Dynamo, a deployment's {@code [date][file:line][LEVEL]:};
   * docs/formats/layouts.md#which-time): a record of its own, read by the same message grammar as a
   * record line, timed by the wrapper (or, when it printed none, the last logged time). Lines
   * without a layout after it (a multi-line message's rest) keep the raw-line rules and fold into
   * its notice.
   */
  private void layoutRecord(
      String text, int bodyStart, Level level, SourcePosition position, ParseOutput sink) {
    Instant ts = collectorTs != null ? collectorTs : lastTs;
    lastHeader = null;
    lastLine = text;
    lastEndedWithCr = false;
    if (ts != null) {
      lastTs = ts;
    }
    rawLines.recordSeen();
    notices.flush(sink);
    VllmHeader header = VllmHeader.bodyOnly(level, bodyStart);
    dispatch(
        new RecordLine(text, header, text.substring(bodyStart), position, ts, settings.instance()),
        sink);
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
    PendingNotice open = notices.open();
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
        || NixlRequestLines.startsRecord(message)
        || isPreemption(message);
  }

  private void dispatch(RecordLine line, ParseOutput sink) {
    String message = line.message();
    if (StatsLine.matches(message)) {
      StatsLine.parse(line, unknown, sink);
    } else if (requests.handle(line, sink)) {
      return;
    } else if (message.startsWith(PrefixCacheLine.PREFIX)) {
      PrefixCacheLine.parse(line, sink);
    } else if (message.startsWith(IterationLine.PREFIX)) {
      IterationLine.parse(line, unknown, sink);
    } else if (isPreemption(message)) {
      notice(line, ServerNotice.Kind.PREEMPTION, sink);
    } else if (kvTransfers.handle(line, sink)
        || nixlReads.handle(line, collectorTs, sink)
        || StartupConfig.handle(line, sink)
        || OtherRecords.handle(line, sink)) {
      return;
    } else if (line.level() == Level.WARNING || line.level().isError()) {
      nixlReads.noteFailure(message);
      String process = line.header().process(line.text());
      notices.start(
          new PendingNotice(line.position(), line.ts(), line.level(), process, message), sink);
    } else {
      line.ignore(sink, OTHER_RECORD);
    }
  }

  /**
   * V0 scheduler ({@code Sequence group X is preempted by PreemptionMode.RECOMPUTE mode because
   * ...}, e7c46b952, 2024-05-13; docs/formats/vllm.md#scheduler-lines), printed at the 1st, 51st,
   * 101st...
   */
  private static boolean isPreemption(String message) {
    return message.startsWith("Sequence group ") && message.contains(" is preempted by ");
  }

  private void notice(RecordLine line, ServerNotice.Kind kind, ParseOutput sink) {
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

  /**
   * The line for a rejection of its header, cut before any request-line text: such a line may carry
   * prompt or output text (user data), and where its message starts is not known.
   */
  private static String redacted(String text, VllmHeader header) {
    int cut = -1;
    for (String marker : USER_TEXT_MARKERS) {
      int at = text.indexOf(marker);
      if (at >= 0 && (cut < 0 || at < cut)) {
        cut = at;
      }
    }
    return cut < 0 ? text : text.substring(0, cut) + "[redacted]";
  }
}
