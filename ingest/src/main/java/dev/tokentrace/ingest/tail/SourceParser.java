package dev.tokentrace.ingest.tail;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.event.UserText;
import dev.tokentrace.parse.LineParser;
import dev.tokentrace.parse.LineSplitter;
import dev.tokentrace.parse.ParseOutput;
import dev.tokentrace.parse.Rejection;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.BitSet;
import org.jspecify.annotations.Nullable;

/**
 * Runs one engine's {@link LineParser} over the lines of one source and passes what it makes of
 * them to an {@link TailOutput}, counting each physical line once: parsed (an event came from it),
 * rejected (a rejection and no event) or ignored (docs/design.md#bad-input), and the events. A
 * line's outcomes are told apart by the line number events and rejections carry, since a grouped
 * record is reported after later lines. Lines the {@link LineSplitter} already rejected (too long,
 * invalid UTF-8, binary) never reach the parser.
 *
 * <p>One instance per source; not thread-safe.
 */
public final class SourceParser implements SourceLines {
  private final String path;
  private final Engine engine;
  private final LineParser parser;
  private final TailOutput sink;
  private final Outcomes outcomes = new Outcomes();
  private long lines;
  private long firstLine;
  private long brokenAt;
  private @Nullable String currentLine;
  private @Nullable SourcePosition currentPosition;
  private boolean currentContinuesUserText;

  /**
   * @param path the source as the user named it; it becomes {@code source.path} of every event
   */
  public SourceParser(String path, Engine engine, LineParser parser, TailOutput sink) {
    this.path = requireNonNull(path, "path is null");
    this.engine = requireNonNull(engine, "engine is null");
    this.parser = requireNonNull(parser, "parser is null");
    this.sink = requireNonNull(sink, "sink is null");
  }

  /**
   * Reads {@code file} (plain or gzip) to its end, parses every line and finishes the parser.
   *
   * @throws IOException when the file cannot be opened or read; lines read before are delivered
   */
  public ParseCounts readFile(Path file, int maxLineBytes) throws IOException {
    LogFileReader.read(file, maxLineBytes, this);
    finish();
    return counts();
  }

  /** What a parser resumed after the lines read so far needs ({@link LineParser#state()}). */
  @Override
  public @Nullable String state() {
    return parser.state();
  }

  @Override
  public void line(String text, long number, long offset) {
    counted(number);
    SourcePosition position = new SourcePosition(path, number, offset);
    currentLine = text;
    currentPosition = position;
    currentContinuesUserText = parser.insideUserText();
    parser.parse(text, position, outcomes);
  }

  @Override
  public void invalid(long number, long offset, String reason, byte[] raw) {
    counted(number);
    if (LogFileReader.CORRUPT_GZIP.equals(reason) && brokenAt == 0) {
      brokenAt = number;
    }
    SourcePosition position = new SourcePosition(path, number, offset);
    outcomes.mark(outcomes.rejectedLines, position);
    // a line of a prompt printed over several lines (too long, or not UTF-8): none of it is kept
    String excerpt = parser.insideUserText() ? UserText.marker(raw.length) : excerptOf(raw);
    Rejection rejection = Rejection.of(position, engine, reason, excerpt);
    sink.rejected(rejection, withoutUserText(raw, rejection));
  }

  /** End of the source: lets the parser emit what it still groups. */
  @Override
  public void finish() {
    currentLine = null;
    currentPosition = null;
    parser.finish(outcomes);
  }

  /**
   * The line at which the source's gzip stream was cut off or corrupt (the rest of the file is
   * missing), or 0 when it was read whole.
   */
  public long brokenAt() {
    return brokenAt;
  }

  /** Each line in one bucket: parsed, else rejected, else ignored (docs/design.md#bad-input). */
  public ParseCounts counts() {
    long parsed = outcomes.eventLines.cardinality();
    BitSet rejectedOnly = (BitSet) outcomes.rejectedLines.clone();
    rejectedOnly.andNot(outcomes.eventLines);
    long rejected = rejectedOnly.cardinality();
    long ignored = Math.max(0, lines - parsed - rejected);
    return new ParseCounts(lines, parsed, ignored, rejected, outcomes.events);
  }

  private void counted(long number) {
    if (lines++ == 0) {
      firstLine = number;
    }
  }

  /** Lenient text of raw bytes for an excerpt: bad UTF-8 and NUL become U+FFFD. */
  static String excerptOf(byte[] raw) {
    int length = Math.min(raw.length, 4 * Rejection.MAX_EXCERPT);
    return new String(raw, 0, length, UTF_8).replace('\0', '\uFFFD');
  }

  private byte[] rawOf(Rejection rejection) {
    String line = currentLine;
    if (line != null && rejection.position().equals(currentPosition)) {
      if (currentContinuesUserText || UserText.contains(line)) {
        return rejection.excerpt().getBytes(UTF_8);
      }
      byte[] bytes = line.getBytes(UTF_8);
      return bytes.length <= LineSplitter.MAX_RAW_BYTES
          ? bytes
          : Arrays.copyOf(bytes, LineSplitter.MAX_RAW_BYTES);
    }
    return rejection.excerpt().getBytes(UTF_8);
  }

  /**
   * The rejects topic carries the raw line, unless it holds prompt or response text: then only the
   * redacted excerpt (user data never leaves the host in a reject).
   */
  private static byte[] withoutUserText(byte[] raw, Rejection rejection) {
    String text = new String(raw, UTF_8);
    return UserText.contains(text) || rejection.excerpt().startsWith("<redacted ")
        ? rejection.excerpt().getBytes(UTF_8)
        : raw;
  }

  private final class Outcomes implements ParseOutput {
    private long events;

    /** Lines (from the first line read) that gave at least one event. */
    private final BitSet eventLines = new BitSet();

    /** Lines that gave a rejection. */
    private final BitSet rejectedLines = new BitSet();

    @Override
    public void event(EngineEvent event) {
      events++;
      mark(eventLines, event.source());
      sink.event(event);
    }

    @Override
    public void ignored(SourcePosition position, String rule) {
      sink.ignored(position, rule);
    }

    @Override
    public void rejected(Rejection rejection) {
      mark(rejectedLines, rejection.position());
      sink.rejected(rejection, rawOf(rejection));
    }

    /** A line of this source; a parser's own positions ({@code <finish>}) are no line of it. */
    void mark(BitSet lines, SourcePosition position) {
      long index = position.line() - firstLine;
      if (position.path().equals(path) && index >= 0 && index < Integer.MAX_VALUE) {
        lines.set((int) index);
      }
    }
  }
}
