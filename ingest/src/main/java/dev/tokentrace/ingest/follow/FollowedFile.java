package dev.tokentrace.ingest.follow;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.clients.ClientLineReader;
import dev.tokentrace.clients.ClientTimingReader;
import dev.tokentrace.clients.ClientTimingReaders;
import dev.tokentrace.clients.FileHead;
import dev.tokentrace.event.Engine;
import dev.tokentrace.ingest.tail.ClientSourceParser;
import dev.tokentrace.ingest.tail.FileIdentity;
import dev.tokentrace.ingest.tail.FileTailer;
import dev.tokentrace.ingest.tail.HeadPrint;
import dev.tokentrace.ingest.tail.LogFileReader;
import dev.tokentrace.ingest.tail.ParseCounts;
import dev.tokentrace.ingest.tail.ReleaseGate;
import dev.tokentrace.ingest.tail.SourceLines;
import dev.tokentrace.ingest.tail.SourceParser;
import dev.tokentrace.ingest.tail.TailPosition;
import dev.tokentrace.parse.LineParser;
import dev.tokentrace.parse.LineSplitter;
import dev.tokentrace.parse.ParseSettings;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.zip.ZipException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One followed file: its {@link FileTailer}, {@link LineSplitter}, parser and {@link ReleaseGate},
 * and the two positions that make shipping exact: the safe position (every line before it is
 * released to the transaction, none after it) and the committed one (the last checkpoint Kafka
 * committed). A rewind after a failed transaction goes back to the committed position with a new
 * parser, as a restart would.
 *
 * <p>Lifecycle: a new file first holds its {@link HeadLines} until its engine and year are known,
 * then parses as it grows. Truncation (copytruncate) ends the old content like an end of file and
 * starts again at offset 0. A rotated file (its name now points elsewhere, or nowhere) is read on,
 * and once it has not grown for the grace period it is finished: its last line, even without a
 * newline, is delivered and its parser's pending record emitted. Gzip files finish at their end.
 *
 * <p>Parser state is per process: after a restart or a rewind, a record grouped across the resume
 * point is simply re-read (the checkpoint never falls inside one), an SGLang step time derived from
 * the previous decode line is missing for the first line after it, and a vLLM log's Dec→Jan year
 * rollover is inferred again from the resume point. Not thread-safe.
 *
 * <p>Longer than the house's 200 lines: the file's states and both positions have to change
 * together, and splitting them over classes would spread that invariant.
 */
final class FollowedFile implements LineSplitter.Receiver {
  private static final Logger log = LoggerFactory.getLogger(FollowedFile.class);

  /** A parser group still open after this many lines is closed early (bounded memory). */
  static final int MAX_GROUP_LINES = 10_000;

  private final String name;
  private final String location;
  private final Path path;
  private final String instance;
  private final FollowContext context;
  private final FileTailer tailer;
  private @Nullable Engine engine;
  private @Nullable String clientFormat;
  private @Nullable String clientState;
  private @Nullable String safeState;
  private @Nullable ClientSourceParser clientParser;
  private int year;
  private @Nullable HeadLines head;
  private LineSplitter splitter;
  private ReleaseGate gate;
  private @Nullable SourceLines parser;
  private boolean safeAfterLast = true;
  private long safeOffset;
  private long safeLine;
  private TailPosition committed;
  private HeadPrint committedHead;
  private ParseCounts committedCounts;
  private boolean rotated;
  private boolean finished;
  private boolean finishCommitted;
  private long lastGrowth = System.nanoTime();
  private @Nullable String failure;

  private FollowedFile(
      Origin origin, FileTailer tailer, TailPosition start, FollowContext context) {
    this.name = origin.name();
    this.path = tailer.path();
    this.location = tailer.path().toString();
    this.instance = origin.instance();
    this.engine = origin.engine();
    this.clientFormat = origin.clientFormat();
    this.clientState = origin.clientState();
    this.safeState = origin.clientState();
    this.context = context;
    this.tailer = tailer;
    this.committed = start;
    this.committedHead = tailer.head();
    this.committedCounts = ParseCounts.ZERO;
    this.splitter =
        new LineSplitter(context.settings().maxLineBytes(), start.offset(), start.line());
    this.gate = new ReleaseGate(context.downstream(), ParseCounts.ZERO);
    this.safeOffset = start.offset();
    this.safeLine = start.line();
    this.head = new HeadLines();
  }

  /**
   * Who a file is: its followed name (its events' {@code source.path}), instance and engine (null:
   * detect it), or for a client or gateway file its client format; and the state its reader or
   * parser resumes with (a client CSV's header, docs/follow.md#client-files; a GPU telemetry file's
   * headers, docs/formats/gpu.md#following-across-restarts).
   */
  record Origin(
      String name,
      String instance,
      @Nullable Engine engine,
      @Nullable String clientFormat,
      @Nullable String clientState) {
    Origin {
      requireNonNull(name, "name is null");
      requireNonNull(instance, "instance is null");
    }

    Origin(String name, String instance, @Nullable Engine engine) {
      this(name, instance, engine, null, null);
    }

    Origin(String name, String instance, @Nullable Engine engine, @Nullable String state) {
      this(name, instance, engine, null, state);
    }
  }

  /** Opens the file at {@code location} (its current name) and starts reading at {@code start}. */
  static FollowedFile open(Origin origin, Path location, TailPosition start, FollowContext context)
      throws IOException {
    FileTailer tailer = FileTailer.open(location, start.offset());
    return new FollowedFile(origin, tailer, start, context);
  }

  String name() {
    return name;
  }

  /** Where the file was found (its name unless it was found again after a rotation). */
  String location() {
    return location;
  }

  /** True when the file still starts as fingerprinted and holds at least {@code offset} bytes. */
  boolean startsWith(HeadPrint print, long offset) throws IOException {
    return tailer.gzip() || (tailer.startsWith(print) && tailer.size() >= offset);
  }

  FileIdentity identity() {
    return tailer.identity();
  }

  @Nullable Engine engine() {
    return engine;
  }

  boolean gzip() {
    return tailer.gzip();
  }

  /**
   * Reads and parses up to about {@code budget} new bytes.
   *
   * @return bytes read
   * @throws IOException when reading fails (the file is then reported and dropped by the caller)
   */
  long poll(byte[] buffer, long budget) throws IOException {
    if (finished || failure != null) {
      return 0;
    }
    if (tailer.truncated()) {
      restartTruncated();
    }
    long total = 0;
    while (total < budget) {
      int count = read(buffer);
      if (count <= 0) {
        break;
      }
      splitter.feed(buffer, 0, count, this);
      total += count;
    }
    if (total > 0) {
      lastGrowth = System.nanoTime();
    }
    afterRead();
    return total;
  }

  private int read(byte[] buffer) throws IOException {
    try {
      int count = tailer.read(buffer);
      if (count < 0 && tailer.gzip()) {
        finish();
      }
      return count;
    } catch (ZipException | EOFException e) {
      if (!tailer.gzip()) {
        throw e;
      }
      // Bad input, not a failure to read: a rotated file compressed while being cut off.
      splitter.finishBroken(this, LogFileReader.CORRUPT_GZIP);
      finish();
      return -1;
    }
  }

  private void afterRead() {
    HeadLines lines = head;
    if (lines != null) {
      boolean timedOut = lines.size() > 0 && lines.ageNanos() > context.detectTimeoutNanos();
      if (timedOut) {
        decide(true, false);
      }
    } else if (safeAfterLast && !finished) {
      safeOffset = splitter.nextOffset();
      safeLine = splitter.nextLineNumber();
    }
  }

  @Override
  public void line(String text, long number, long offset) {
    HeadLines lines = head;
    if (lines != null) {
      lines.line(text, number, offset);
      maybeDecide(lines);
      return;
    }
    beforeLine(number, offset);
    requireNonNull(parser, "parser").line(text, number, offset);
    afterLine(number);
  }

  @Override
  public void invalid(long number, long offset, String reason, byte[] raw) {
    HeadLines lines = head;
    if (lines != null) {
      lines.invalid(number, offset, reason, raw);
      maybeDecide(lines);
      return;
    }
    beforeLine(number, offset);
    requireNonNull(parser, "parser").invalid(number, offset, reason, raw);
    afterLine(number);
  }

  private void beforeLine(long number, long offset) {
    if (safeAfterLast) {
      safeOffset = offset;
      safeLine = number;
    }
    gate.beginLine(number);
  }

  private void afterLine(long number) {
    safeAfterLast = gate.endLine();
    if (safeAfterLast && clientFormat == null) {
      // what a parser resumed after this line needs (docs/formats/gpu.md#following-across-restarts)
      safeState = requireNonNull(parser, "parser").state();
    }
    if (!safeAfterLast && number - gate.oldestPending() >= MAX_GROUP_LINES) {
      log.warn(
          "{}:{}: a record grouped since line {} is still open after {} lines; it is closed here,"
              + " as at the end of a file",
          name,
          number,
          gate.oldestPending(),
          MAX_GROUP_LINES);
      String state = requireNonNull(parser, "parser").state();
      closeParser();
      safeState = state;
      parser = newParser();
    }
  }

  private void closeParser() {
    SourceLines current = parser;
    if (current != null) {
      current.finish();
    }
    gate.finished();
    safeAfterLast = true;
  }

  private void maybeDecide(HeadLines lines) {
    int size = lines.size();
    boolean due = engine != null || size == 1 || size == 3 || size % HeadLines.ENOUGH_LINES == 0;
    if (due || lines.full()) {
      decide(false, false);
    }
  }

  /**
   * Decides the engine (unless known) and year from the head, then replays it into the parser.
   *
   * @param anyWinner accept a best engine even with few events (timeout, end of input)
   * @param end no more lines will come: without a winner the file fails
   */
  private void decide(boolean anyWinner, boolean end) {
    HeadLines lines = requireNonNull(head, "head");
    if (engine == null && clientFormat == null) {
      ClientDetection.Choice client =
          ClientDetection.detect(lines.bytes(), context.clients().read());
      if (client.failure() != null) {
        fail(client.failure());
        return;
      }
      if (client.reader() != null) {
        clientFormat = client.reader().format();
        log.info(
            "{}: client file, format {}, detected from its first {} lines; its rows go to run {}",
            name,
            clientFormat,
            lines.size(),
            context.clients().run());
      }
    }
    if (clientFormat != null) {
      head = null;
      parser = newParser();
      lines.replay(this);
      return;
    }
    int startYear = context.settings().year() != null ? context.settings().year() : yearOf(lines);
    Engine chosen = engine;
    if (chosen == null) {
      HeadLines.Choice choice = lines.detect(parseSettings(startYear), anyWinner || end);
      if (choice.failure() != null || (end && !choice.decided())) {
        fail(
            choice.failure() != null
                ? choice.failure()
                : "no known engine format in its " + lines.size() + " lines; give --engine");
        return;
      }
      if (!choice.decided()) {
        return;
      }
      chosen = requireNonNull(choice.engine(), "engine");
      log.info("{}: {} detected from its first {} lines", name, chosen.id(), lines.size());
    }
    engine = chosen;
    year = startYear;
    head = null;
    parser = newParser();
    lines.replay(this);
  }

  private int yearOf(HeadLines lines) {
    try {
      return lines.startYear(
          LocalDate.ofInstant(
              Files.getLastModifiedTime(tailer.path()).toInstant(), context.settings().zone()));
    } catch (IOException e) {
      // The file was renamed or deleted meanwhile: today is as close to its last line.
      return lines.startYear(LocalDate.now(context.settings().zone()));
    }
  }

  private ParseSettings parseSettings(int startYear) {
    return new ParseSettings(
        instance, context.settings().zone(), startYear, context.settings().gpuMap());
  }

  private SourceLines newParser() {
    String format = clientFormat;
    if (format != null) {
      ClientTimingReader reader = ClientTimingReaders.forFormat(format, context.clients().read());
      ClientLineReader lines = reader.lineReader(clientHead(), clientState);
      if (lines == null) {
        throw new IllegalStateException(format + " has no line reader");
      }
      clientParser = new ClientSourceParser(name, context.clients().run(), format, lines, gate);
      return clientParser;
    }
    Engine chosen = requireNonNull(engine, "engine");
    LineParser lines = context.parsers().apply(chosen, parseSettings(year));
    String state = safeState;
    if (state != null) {
      lines.resume(state);
    }
    return new SourceParser(name, chosen, lines, gate);
  }

  /** The file's first bytes (a gateway log's layout is chosen from them); empty if unreadable. */
  private FileHead clientHead() {
    try {
      return FileHead.of(path);
    } catch (UncheckedIOException e) {
      return FileHead.of(new byte[0]);
    }
  }

  private void fail(String reason) {
    failure = name + ": " + reason;
    log.error("{}; the file is not shipped", failure);
  }

  /**
   * The file will not grow anymore (rotated and idle, gzip at its end, or {@code --once}): its last
   * line is delivered even without a newline, and its parser's pending record emitted.
   */
  void finish() {
    if (finished || failure != null) {
      return;
    }
    splitter.finish(this);
    HeadLines lines = head;
    if (lines != null && lines.size() > 0) {
      decide(true, true);
    }
    if (failure != null) {
      return;
    }
    closeParser();
    safeOffset = splitter.nextOffset();
    safeLine = splitter.nextLineNumber();
    finished = true;
  }

  /** For {@code --once}: decides a waiting head with whatever lines it has. */
  void decideNow() {
    if (head != null && head.size() > 0 && failure == null) {
      decide(true, true);
      afterRead();
    }
  }

  private void restartTruncated() throws IOException {
    log.warn(
        "{}: truncated below offset {} (copytruncate?): reading it again from its start. Lines"
            + " written between the copy and the truncation are in the copy only",
        name,
        tailer.position());
    // The old content's partial last line is final now: deliver it rather than drop it.
    splitter.finish(this);
    HeadLines lines = head;
    if (lines != null && lines.size() > 0) {
      decide(true, true);
    }
    closeParser();
    tailer.seek(0);
    splitter = new LineSplitter(context.settings().maxLineBytes());
    clientState = null;
    safeState = null;
    safeOffset = 0;
    safeLine = 1;
    if (engine != null && head == null) {
      parser = newParser();
    } else {
      head = new HeadLines();
    }
  }

  /** Back to the committed position after a failed transaction: as a restart would resume. */
  void rewind() throws IOException {
    if (finishCommitted || failure != null) {
      return;
    }
    TailPosition start = committed;
    if (!tailer.startsWith(committedHead)) {
      log.warn("{}: truncated since the last checkpoint; reading it again from its start", name);
      start = TailPosition.START;
    }
    tailer.seek(start.offset());
    splitter = new LineSplitter(context.settings().maxLineBytes(), start.offset(), start.line());
    gate = new ReleaseGate(context.downstream(), committedCounts);
    safeOffset = start.offset();
    safeLine = start.line();
    safeAfterLast = true;
    safeState = start.offset() == 0 ? null : clientState;
    finished = false;
    lastGrowth = System.nanoTime();
    head = engine == null || year == 0 ? new HeadLines() : null;
    parser = head == null ? newParser() : null;
  }

  /** The checkpoint entry for the safe position. */
  Checkpoint.FileCheckpoint checkpoint() {
    HeadPrint print = tailer.head();
    String kind = engine != null ? engine.id() : null;
    if (clientFormat != null) {
      kind = Checkpoint.FileCheckpoint.CLIENT + clientFormat;
    }
    return new Checkpoint.FileCheckpoint(
        name,
        instance,
        tailer.identity().key(),
        print.length(),
        print.crc(),
        safeOffset,
        safeLine,
        kind,
        resumeState());
  }

  /**
   * The client reader's or engine parser's state for a resume at the safe position: none at the
   * very start (the header is read again there).
   */
  private @Nullable String resumeState() {
    if (safeOffset == 0) {
      return null;
    }
    if (clientFormat == null) {
      return safeState;
    }
    ClientSourceParser current = clientParser;
    String state = current != null && head == null ? current.state() : null;
    return state != null ? state : clientState;
  }

  /** The checkpoint from {@link #checkpoint()} was committed (nothing was read in between). */
  void committed() {
    committed = new TailPosition(safeOffset, safeLine);
    clientState = resumeState();
    committedHead = tailer.head();
    committedCounts = gate.released();
    finishCommitted = finished;
  }

  /** True when the safe position moved since the last commit. */
  boolean dirty() {
    return safeOffset != committed.offset()
        || safeLine != committed.line()
        || finished != finishCommitted;
  }

  /** Lines committed in this run and what became of them. */
  ParseCounts committedCounts() {
    return committedCounts;
  }

  /** Lines released (shipped) in this run and what became of them. */
  ParseCounts counts() {
    return gate.released();
  }

  /** Bytes of the file not read yet. */
  long lag() {
    try {
      return finished || failure != null ? 0 : tailer.remaining();
    } catch (IOException e) {
      return 0;
    }
  }

  void markRotated() {
    if (!rotated) {
      rotated = true;
      lastGrowth = System.nanoTime();
      log.info("{}: rotated (renamed or deleted); reading the old file to its end", name);
    }
  }

  boolean rotated() {
    return rotated;
  }

  /** True for a rotated file that has not grown for {@code graceNanos}. */
  boolean idleRotated(long graceNanos) {
    return rotated && System.nanoTime() - lastGrowth >= graceNanos;
  }

  boolean finished() {
    return finished;
  }

  /** True once its end was committed: it can be closed and forgotten. */
  boolean done() {
    return finishCommitted;
  }

  @Nullable String failure() {
    return failure;
  }

  /** The path the file was found at, checked for rotation. */
  Path path() {
    return path;
  }

  void close() {
    try {
      tailer.close();
    } catch (IOException e) {
      // Closing a file we only read cannot lose data; say so and go on.
      log.debug("{}: close failed: {}", name, e.toString());
    }
  }
}
