package dev.tokentrace.parse.sglang;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.ServerNotice;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.parse.CollectorClock;
import dev.tokentrace.parse.ConfigFacts;
import dev.tokentrace.parse.LineParser;
import dev.tokentrace.parse.ParseOutput;
import dev.tokentrace.parse.ParseSettings;
import dev.tokentrace.parse.Rejection;
import dev.tokentrace.parse.Timestamps;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * Parses what SGLang writes, every generation in docs/formats/sglang.md: the scheduler's {@code
 * Prefill batch}/{@code Decode batch} lines ({@code batch_step}), {@code --log-requests} lines in
 * text and JSON, {@code meta_info} timings, {@code Req Time Stats} lines and metrics-export records
 * (request events), and tracebacks, OOM, retraction and warning messages ({@code server_notice}).
 * Known noise (uvicorn, startup, tqdm, ...) is ignored by named rules; unknown unprefixed text is
 * rejected.
 *
 * <p>A line is first freed of transport prefixes ({@link TransportPrefix}), then split at SGLang's
 * {@code [date time RANKS]} prefix ({@link Envelope}). Message bodies are also found after an
 * embedder's own prefix (an ISO date-time, then the body somewhere after a space or {@code ]}), as
 * docs/formats/sglang.md#log-prefix asks, and at the start of unprefixed lines (≤ v0.2.13, {@code
 * %(message)s} loggers).
 *
 * <p>Timestamps are local time in {@link ParseSettings#zone()}. {@link ParseSettings#startYear()}
 * is not used: SGLang prints either a full date or, in v0.2.14 – v0.3.3, the time only, which is
 * dated from the last full date seen or left null ({@link Timestamps.Local}).
 *
 * <p>Not thread-safe: one instance per source. It keeps per-source state: the open notice (a
 * traceback is one notice, emitted when a line that does not continue it arrives or at {@link
 * #finish}), the last Decode time per rank ({@link DecodeStepTimer}) and the date anchor.
 */
public final class SglangLineParser implements LineParser, CollectorClock {
  private final ParseSettings settings;
  private final Timestamps.Local clock;
  private final Envelope envelope;
  private final BatchLine batch = new BatchLine();
  private final DecodeStepTimer stepTimer = new DecodeStepTimer();
  private final RequestJoiner requests;
  private final TimeStatsLine timeStatsLine;
  private final JsonLine jsonLine;
  private final PendingNotice notice;
  private final RequestEvents requestEvents;

  /** Batch line fields whose odd value was already noted in this source. */
  private final java.util.Set<String> oddValuesNoted = new java.util.HashSet<>();

  /** An SGLang line was seen: unprefixed tracebacks and indented lines are then SGLang's too. */
  private boolean sawSglang;

  /** The time a collector or wrapper layout printed before the current line, or null. */
  private @Nullable Instant wrapperTs;

  /** The level a wrapper layout printed before the current line's body, or null. */
  private @Nullable String wrapperLevel;

  public SglangLineParser(ParseSettings settings) {
    this.settings = requireNonNull(settings, "settings is null");
    this.clock = new Timestamps.Local(settings.zone(), settings.startYear());
    this.envelope = new Envelope(clock);
    this.requestEvents = new RequestEvents(settings.instance());
    this.requests = new RequestJoiner(new RequestLine(requestEvents));
    this.timeStatsLine = new TimeStatsLine(settings.instance());
    this.jsonLine = new JsonLine(requestEvents, clock);
    this.notice = new PendingNotice(settings.instance());
  }

  /**
   * The collector's or wrapper's time of the next line: lines without SGLang's own prefix take it
   * (docs/formats/layouts.md#which-time).
   */
  @Override
  public void collectorTime(@Nullable Instant ts) {
    wrapperTs = ts;
  }

  /**
   * A wrapper layout printed a level before the body: the body is a logger message, read as after
   * SGLang's own prefix (docs/formats/layouts.md).
   */
  @Override
  public void wrapperLevel(@Nullable String level) {
    wrapperLevel = level;
  }

  @Override
  public void parse(String line, SourcePosition position, ParseOutput sink) {
    String text = TransportPrefix.strip(line);
    envelope.parse(text);
    requestEvents.wrapperTime(!envelope.prefixed && wrapperTs != null);
    if (requests.isPending()) {
      if (!envelope.prefixed && !BodyMarkers.isKnownUnprefixed(body(text))) {
        requests.continueWith(text, position, sink);
        return;
      }
      requests.flush(sink);
    }
    if (envelope.prefixed) {
      notice.emit(sink);
      sawSglang = true;
      if (envelope.badTimestamp) {
        reject(text, "bad timestamp", position, sink);
      } else {
        prefixed(text, envelope.bodyStart, envelope.ts, envelope.millisPrecise, position, sink);
      }
    } else if (wrapperLevel != null && isLoggerMessage(body(text))) {
      // a message body under a wrapper layout with a level (docs/formats/layouts.md)
      notice.emit(sink);
      sawSglang = true;
      prefixed(text, envelope.bodyStart, wrapperTs, false, position, sink);
    } else {
      unprefixed(text, position, sink);
    }
  }

  @Override
  public void finish(ParseOutput sink) {
    requests.flush(sink);
    notice.emit(sink);
  }

  /**
   * SGLang prints continuation lines without its prefix: a prefixed line is a new record. While a
   * request line split by raw newlines is being joined, the joiner owns its continuation lines (it
   * needs the fields after the prompt, e.g. the rid, and never stores the prompt:
   * docs/formats/sglang.md#request-lines), so the guard steps aside for them.
   */
  @Override
  public int continuationStart(String line) {
    if (requests.isPending()) {
      return -1;
    }
    envelope.parse(TransportPrefix.strip(line));
    return envelope.prefixed ? -1 : 0;
  }

  private void prefixed(
      String line,
      int start,
      @Nullable Instant ts,
      boolean millisPrecise,
      SourcePosition position,
      ParseOutput sink) {
    if (body(line, start, new LineStamp(ts, millisPrecise, envelope.rank, position), sink)) {
      return;
    }
    if (line.startsWith(NoiseRules.READY, start)) {
      stepTimer.reset();
      sink.event(startupNotice(ts, position, NoiseRules.READY));
      return;
    }
    if (startupConfig(line, start, ts, position, sink)) {
      return;
    }
    String noise = NoiseRules.forMessage(line, start);
    if (noise != null) {
      if (line.startsWith("server_args=", start)) {
        stepTimer.reset();
      }
      sink.ignored(position, noise);
      return;
    }
    NoticeRules.Rule rule = NoticeRules.forMessage(line, start);
    if (rule != null) {
      notice.open(rule, ts, position, line.substring(start));
    } else if (line.startsWith(BodyMarkers.OPENAI_ECHO, start)) {
      sink.ignored(position, JsonLine.OPENAI_ECHO);
    } else {
      sink.ignored(position, NoiseRules.OTHER);
    }
  }

  private void unprefixed(String line, SourcePosition position, ParseOutput sink) {
    String body = body(line);
    if (BodyMarkers.isKnownUnprefixed(body)) {
      notice.emit(sink);
      if (known(body, position, sink)) {
        return;
      }
    } else if (notice.continuesWith(body)) {
      notice.fold(body);
      sink.ignored(position, NoiseRules.TRACEBACK_LINE);
      return;
    }
    notice.emit(sink);
    if (!embedded(body, position, sink)) {
      other(body, position, sink);
    }
  }

  /** An unprefixed line without the Ray actor tag or legacy GPU tag before it (Envelope). */
  private String body(String line) {
    return envelope.bodyStart == 0 ? line : line.substring(envelope.bodyStart);
  }

  private boolean known(String body, SourcePosition position, ParseOutput sink) {
    if (body.startsWith("{")) {
      // a JSON record's own timestamp is SGLang's (docs/formats/layouts.md#which-time)
      requestEvents.wrapperTime(false);
      jsonLine.parse(body, position, sink);
      return true;
    }
    if (body.startsWith("INFO:")) {
      sink.ignored(position, NoiseRules.uvicornInfo(body, 0));
      return true;
    }
    if (body.startsWith(BodyMarkers.OPENAI_ECHO)) {
      // 2026-01-03 – 2026-05-05: request lines have no prefix
      // (docs/formats/sglang.md#request-lines)
      sink.ignored(position, JsonLine.OPENAI_ECHO);
      return true;
    }
    if (body(body, 0, new LineStamp(wrapperTs, false, envelope.rank, position), sink)) {
      sawSglang = true;
      return true;
    }
    return false;
  }

  /** Noise, an SGLang notice, a traceback start, an indented continuation, or a rejection. */
  private void other(String line, SourcePosition position, ParseOutput sink) {
    String noise = NoiseRules.forUnprefixed(line);
    if (noise != null) {
      sink.ignored(position, noise);
      return;
    }
    if (ownStartupLine(line, position, sink)) {
      return;
    }
    NoticeRules.Rule own = NoticeRules.sglangMessage(line, 0);
    NoticeRules.Rule traceback = NoticeRules.traceback(line);
    if (own != null) {
      sawSglang = true;
      notice.open(own, wrapperTs, position, line);
    } else if (traceback != null && sawSglang) {
      notice.open(traceback, wrapperTs, position, line);
    } else if (traceback != null) {
      sink.ignored(position, NoiseRules.TRACEBACK_WITHOUT_CONTEXT);
    } else if (sawSglang && isIndented(line)) {
      sink.ignored(position, NoiseRules.CONTINUATION);
    } else {
      String reason = line.indexOf('\u0000') >= 0 ? "binary data" : "unrecognized line";
      reject(line, reason, position, sink);
    }
  }

  /**
   * SGLang's startup lines and its ready message without a prefix: ≤ v0.2.13 logs with {@code
   * %(message)s} (docs/formats/sglang.md#log-prefix, docs/formats/sglang.md#other-scheduler-lines;
   * see samples/sglang/formats/v0.2.9-gpu-tag), where the scheduler's lines may still carry the
   * legacy {@code [gpu=N]} tag that the envelope removed.
   */
  private boolean ownStartupLine(String line, SourcePosition position, ParseOutput sink) {
    if (line.startsWith(NoiseRules.READY)) {
      sawSglang = true;
      stepTimer.reset();
      sink.event(startupNotice(wrapperTs, position, NoiseRules.READY));
      return true;
    }
    if (!NoiseRules.isStartup(line, 0)) {
      return false;
    }
    sawSglang = true;
    if (!startupConfig(line, 0, wrapperTs, position, sink)) {
      if (line.startsWith("server_args=")) {
        stepTimer.reset();
      }
      sink.ignored(position, NoiseRules.STARTUP);
    }
    return true;
  }

  /**
   * A startup line that carries configuration ({@link StartupConfig}): its facts become {@code
   * server_config} events; {@code server_args=} also means a (re)start, so the step timer restarts.
   */
  private boolean startupConfig(
      String line, int start, @Nullable Instant ts, SourcePosition position, ParseOutput sink) {
    ConfigFacts.Facts facts = StartupConfig.facts(line, start, envelope.rank);
    if (facts == null) {
      return false;
    }
    if (line.startsWith("server_args=", start)) {
      stepTimer.reset();
    }
    if (facts.facts().isEmpty()) {
      sink.ignored(position, NoiseRules.STARTUP);
    } else {
      ConfigFacts.emit(
          Engine.SGLANG, settings.instance(), ts, position, facts.section(), facts.facts(), sink);
    }
    return true;
  }

  /**
   * An embedder's prefix ({@code 2025-12-04 20:35:53 INFO 151972 [file.py:287] Decode batch. ...},
   * docs/formats/sglang.md#log-prefix): a known body after a space or {@code ]}, timed by a leading
   * local date-time if there is one.
   */
  private boolean embedded(String line, SourcePosition position, ParseOutput sink) {
    if (isIndented(line)) {
      return false;
    }
    int at = BodyMarkers.embeddedBodyStart(line);
    if (at < 0) {
      return false;
    }
    int length = Timestamps.isoLocalLength(line, 0);
    Instant ts = length < 0 ? wrapperTs : clock.isoLocal(line, 0, length);
    boolean precise = length >= 0 && ts != null && Timestamps.isoFractionDigits(length) >= 3;
    String rank = envelope.rank;
    LoggerField.Field field = LoggerField.before(line, at);
    if (rank == null && field != null) {
      // an embedder's logger field with SGLang's rank tags (docs/formats/sglang-wild.md)
      rank = field.tags();
    }
    if (body(line, at, new LineStamp(ts, precise, rank, position), sink)) {
      sawSglang = true;
      return true;
    }
    return false;
  }

  /** A batch, request or time-stats body at {@code start}; false when it is none of them. */
  private boolean body(String line, int start, LineStamp stamp, ParseOutput sink) {
    if (batch.matchHeader(line, start)) {
      batchStep(line, stamp, sink);
      return true;
    }
    return requests.read(line, start, stamp.ts(), stamp.position(), sink)
        || timeStatsLine.parse(line, start, stamp.ts(), stamp.position(), sink);
  }

  private void batchStep(String line, LineStamp stamp, ParseOutput sink) {
    String problem = batch.parseBody(line);
    Instant when = stamp.ts();
    boolean millis = stamp.millisPrecise();
    if (problem == null && batch.timestampStart >= 0) {
      // v0.4.9.post1 – post2 add "timestamp: <isoformat>" with microseconds
      // (docs/formats/sglang.md#prefill-batch-line)
      int length = Timestamps.isoLocalLength(line, batch.timestampStart);
      when =
          length == batch.timestampEnd - batch.timestampStart
              ? clock.isoLocal(line, batch.timestampStart, length)
              : null;
      millis = true;
      problem = when == null ? "batch line: bad 'timestamp' value" : null;
    }
    if (problem != null) {
      reject(line, problem, stamp.position(), sink);
      return;
    }
    LineStamp exact = new LineStamp(when, millis, stamp.rank(), stamp.position());
    sink.event(BatchSteps.of(batch, settings.instance(), exact, stepTimer));
    String odd = batch.oddValue;
    if (odd != null && oddValuesNoted.add(odd.substring(0, odd.indexOf(':')))) {
      // once per source and field (docs/formats/layouts.md#odd-values)
      sink.event(
          new ServerNotice(
              Engine.SGLANG,
              settings.instance(),
              exact.ts(),
              stamp.position(),
              "WARNING",
              ServerNotice.Kind.DATA_QUALITY,
              "batch line: '"
                  + odd
                  + "' is not a count; the field is left empty (noted once per source)"));
    }
  }

  private ServerNotice startupNotice(@Nullable Instant ts, SourcePosition position, String text) {
    return new ServerNotice(
        Engine.SGLANG, settings.instance(), ts, position, "INFO", ServerNotice.Kind.STARTUP, text);
  }

  /** A wrapped body read as a logger message: not JSON, uvicorn's own line or indented text. */
  private static boolean isLoggerMessage(String body) {
    return !body.isBlank()
        && !isIndented(body)
        && !body.startsWith("{")
        && !body.startsWith("INFO:");
  }

  private static boolean isIndented(String line) {
    return !line.isEmpty() && (line.charAt(0) == ' ' || line.charAt(0) == '\t');
  }

  /** Any line may be a fragment of a request object: the excerpt never carries one. */
  private static void reject(
      String line, String reason, SourcePosition position, ParseOutput sink) {
    String excerpt = EventText.requestExcerpt(line, Integer.MAX_VALUE);
    sink.rejected(Rejection.of(position, Engine.SGLANG, reason, excerpt));
  }
}
