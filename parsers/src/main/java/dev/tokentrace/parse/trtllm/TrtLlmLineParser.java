package dev.tokentrace.parse.trtllm;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.ServerNotice;
import dev.tokentrace.event.ServerNotice.Kind;
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
 * Parses what TensorRT-LLM writes (docs/formats/trtllm.md): C++ and Python logger lines of every
 * generation, {@code print_iter_log} iteration lines → {@code batch_step}, iteration stats JSON
 * ({@code /metrics} dumps, Triton backend stats) → {@code batch_step} + {@code engine_stats},
 * {@code /perf_metrics} and {@code TRTLLM_PERF_TIME_EVENTS_PATH} JSON → {@code request_timing}
 * (and, in disaggregated serving, {@code kv_transfer}), the cache transceiver's per-rank transfer
 * CSVs → {@code kv_transfer} ({@link TransferCsv}), errors and warnings → {@code server_notice}
 * with tracebacks folded in, client disconnects → {@code request_aborted}. A file may mix text and
 * JSON, and JSON may span lines.
 *
 * <p>Timestamps: Python and Triton lines carry local time, converted with {@link
 * ParseSettings#zone()}; C++ lines carry none, so their events get the container runtime's time
 * when the line has a {@code --timestamps} prefix and null otherwise, never the last seen time
 * (which could be seconds off). Lines that other Python servers print as well (uvicorn, tracebacks,
 * Python warnings, Triton's own lines) make events only after a TensorRT-LLM-specific line was seen
 * in the source, so that format detection never scores another engine's log as TensorRT-LLM. Not
 * thread-safe: one instance per source.
 */
public final class TrtLlmLineParser implements LineParser, CollectorClock {
  /** Largest JSON element buffered across lines (characters). */
  static final long DEFAULT_MAX_JSON_CHARS = 64L << 20;

  static final String BLANK_RULE = "trtllm: blank line";
  static final String CONTINUATION_RULE = "trtllm: continuation line";

  private final String instance;
  private final LineCleaner cleaner = new LineCleaner();
  private @Nullable String wrapperLevel;
  private final LogHeaders headers;
  private final LogMessages messages;
  private final JsonSplitter splitter;
  private final NoticeGrouper grouper;
  private final PrometheusBlock prometheus;
  private final TransferCsv transferCsv;
  private boolean seenTrt;

  public TrtLlmLineParser(ParseSettings settings) {
    this(settings, DEFAULT_MAX_JSON_CHARS);
  }

  TrtLlmLineParser(ParseSettings settings, long maxJsonChars) {
    requireNonNull(settings, "settings is null");
    this.instance = settings.instance();
    Timestamps.Local times = new Timestamps.Local(settings.zone(), settings.startYear());
    this.headers = new LogHeaders(times);
    JsonRecords jsonRecords = new JsonRecords(instance, times);
    this.splitter = new JsonSplitter(maxJsonChars, jsonRecords);
    this.grouper = new NoticeGrouper(instance);
    this.messages = new LogMessages(instance, new IterationLines(times), jsonRecords, grouper);
    this.prometheus = new PrometheusBlock(instance);
    this.transferCsv = new TransferCsv(instance);
  }

  /** The collector's time of the next line: the time of C++ logger lines, which print none. */
  @Override
  public void collectorTime(@Nullable Instant ts) {
    cleaner.collectorTime(ts);
  }

  /**
   * A wrapper layout's level: a line without TensorRT-LLM's own header is then a logger message
   * body, read as one with the wrapper's time (docs/formats/layouts.md).
   */
  @Override
  public void wrapperLevel(@Nullable String level) {
    wrapperLevel = level == null ? null : level.equals("CRITICAL") ? "FATAL" : level;
  }

  @Override
  public void parse(String raw, SourcePosition position, ParseOutput sink) {
    String line = cleaner.clean(raw);
    if (splitter.active()) {
      if (JsonSplitter.continuesValue(line) && !looksLikeLogLine(line)) {
        splitter.feed(line, position, sink);
        return;
      }
      splitter.abort(sink);
    }
    if (line.isBlank()) {
      sink.ignored(position, BLANK_RULE);
      return;
    }
    if (grouper.pending()) {
      if (NoticeGrouper.isContinuation(line)) {
        grouper.attach(line);
        sink.ignored(position, NoticeGrouper.RULE);
        return;
      }
      grouper.flush(sink);
    }
    if (prometheus.active() && !PrometheusBlock.isOurs(line)) {
      prometheus.flush(sink);
    }
    route(line, position, sink);
  }

  @Override
  public void finish(ParseOutput sink) {
    splitter.abort(sink);
    grouper.flush(sink);
    prometheus.flush(sink);
  }

  private void route(String line, SourcePosition position, ParseOutput sink) {
    if (TransferCsv.isHeader(line)) {
      seenTrt = true;
      transferCsv.header(line, position, sink);
      return;
    }
    if (transferCsv.accepts(line, position)) {
      transferCsv.row(line, position, sink);
      return;
    }
    LogHeader header = headers.parse(line);
    if (header != null) {
      logLine(header, position, sink);
      return;
    }
    String failure = headers.failure();
    if (failure != null) {
      reject(sink, position, failure, line);
    } else if (wrapperLevel != null && !NoticeGrouper.isContinuation(line)) {
      logLine(new LogHeader(wrapperLevel, null, null, line, LogHeader.Origin.TRT), position, sink);
    } else if (JsonSplitter.beginsValue(line)) {
      splitter.feed(line, position, sink);
    } else if (PrometheusBlock.isOurs(line)) {
      seenTrt |= line.startsWith("nv_trt_llm_");
      prometheus.accept(line, position, sink);
    } else if (NoticeGrouper.isContinuation(line)) {
      continuation(line, position, sink);
    } else if (NoiseRules.isPythonWarning(line)) {
      pythonWarning(line, position, sink);
    } else {
      String rule = NoiseRules.rule(line);
      if (rule != null) {
        sink.ignored(position, rule);
      } else {
        reject(sink, position, "unrecognized line", line);
      }
    }
  }

  private void logLine(LogHeader header, SourcePosition position, ParseOutput sink) {
    seenTrt |= header.trtSpecific();
    Instant ts = header.ts() != null ? header.ts() : cleaner.containerTs();
    messages.handle(header, ts, seenTrt, position, sink);
  }

  /** A traceback, exception or indented line with no error before it. */
  private void continuation(String line, SourcePosition position, ParseOutput sink) {
    boolean indented = line.charAt(0) == ' ' || line.charAt(0) == '\t';
    if (indented || Character.isDigit(line.charAt(0))) {
      sink.ignored(position, CONTINUATION_RULE);
    } else if (seenTrt) {
      grouper.startWith(line, position, cleaner.containerTs(), sink);
    } else {
      sink.ignored(position, NoticeGrouper.RULE);
    }
  }

  private void pythonWarning(String line, SourcePosition position, ParseOutput sink) {
    if (seenTrt) {
      sink.event(
          new ServerNotice(
              Engine.TRTLLM,
              instance,
              cleaner.containerTs(),
              position,
              "WARNING",
              Kind.WARNING,
              line));
    } else {
      sink.ignored(position, NoiseRules.PYTHON_WARNING_RULE);
    }
  }

  /** Lines that end an open JSON value: no JSON line starts like a logger line. */
  /** A line with a logger header is a new record; anything else continues. */
  @Override
  public int continuationStart(String line) {
    return looksLikeLogLine(cleaner.clean(line)) ? -1 : 0;
  }

  private static boolean looksLikeLogLine(String line) {
    return line.startsWith(LogHeaders.CPP_PREFIX)
        || line.startsWith(LogHeaders.TRT_LLM_TAG)
        || line.startsWith(LogHeaders.TRT_TAG)
        || (line.startsWith("[") && LogHeaders.isPythonTimestamp(line));
  }

  private static void reject(
      ParseOutput sink, SourcePosition position, String reason, String line) {
    sink.rejected(Rejection.of(position, Engine.TRTLLM, reason, line));
  }
}
