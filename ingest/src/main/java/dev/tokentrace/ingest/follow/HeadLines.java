package dev.tokentrace.ingest.follow;

import dev.tokentrace.event.Engine;
import dev.tokentrace.parse.LineSplitter;
import dev.tokentrace.parse.ParseSettings;
import dev.tokentrace.parse.Parsers;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The first lines of a followed file, held before it is parsed: until its engine is detected
 * ({@code --engine auto}) and the year of a log without years is known. Bounded: at most {@value
 * #MAX_LINES} lines and {@value #MAX_CHARS} characters. Then they are replayed into the parser, so
 * nothing read while waiting is lost, and the checkpoint stays before them until then. Not
 * thread-safe.
 */
final class HeadLines implements LineSplitter.Receiver {
  /** As {@code SourceFiles.HEAD_LINES} of the CLI: enough for banners and a stats interval. */
  static final int MAX_LINES = 400;

  static final int MAX_CHARS = 1 << 20;

  /** A clearly best engine with this many events is trusted before the head is full. */
  static final int ENOUGH_EVENTS = 3;

  /** ... as is a clearly best engine after this many lines. */
  static final int ENOUGH_LINES = 20;

  /**
   * vLLM's {@code MM-DD HH:MM:SS} record time (docs/formats/vllm.md#record-header), for the year.
   */
  private static final Pattern MONTH_DAY =
      Pattern.compile("\\b(0[1-9]|1[0-2])-([0-3]\\d) \\d{2}:\\d{2}:\\d{2}\\b");

  private final List<Held> lines = new ArrayList<>();
  private final long started = System.nanoTime();
  private long chars;

  /** What to do with a file after looking at its head. */
  record Choice(@Nullable Engine engine, @Nullable String failure) {
    static final Choice WAIT = new Choice(null, null);

    boolean decided() {
      return engine != null;
    }
  }

  @Override
  public void line(String text, long number, long offset) {
    lines.add(new Held(text, null, "", number, offset));
    chars += text.length();
  }

  @Override
  public void invalid(long number, long offset, String reason, byte[] raw) {
    lines.add(new Held(null, raw, reason, number, offset));
  }

  int size() {
    return lines.size();
  }

  boolean full() {
    return lines.size() >= MAX_LINES || chars >= MAX_CHARS;
  }

  long ageNanos() {
    return System.nanoTime() - started;
  }

  /**
   * Detects the engine from the lines so far (Parsers.detect): decided when one engine is clearly
   * best and has {@value #ENOUGH_EVENTS} events, or {@value #ENOUGH_LINES} lines were read, or
   * {@code force} (timeout, end of input); failed when the head is full (or forced) without a
   * winner.
   */
  Choice detect(ParseSettings settings, boolean force) {
    Parsers.Detection detection = Parsers.detect(texts(), settings);
    Optional<Engine> winner = detection.engine();
    boolean end = force || full();
    if (winner.isPresent()) {
      int events = detection.scores().get(winner.get()).events();
      boolean enough = events >= ENOUGH_EVENTS || lines.size() >= ENOUGH_LINES;
      return enough || end ? new Choice(winner.get(), null) : Choice.WAIT;
    }
    if (full()) {
      return new Choice(
          null,
          "no known engine format in its first "
              + lines.size()
              + " lines (tried "
              + detection.describe()
              + "); give --engine if you know it");
    }
    return Choice.WAIT;
  }

  /**
   * The year of the first {@code MM-DD} timestamp: the year of {@code modified} (the file's
   * modification date, close to its last line), one less when that month is later than the
   * modification's (the log began last year). As the CLI does for whole files.
   */
  int startYear(LocalDate modified) {
    for (Held held : lines) {
      if (held.text() == null) {
        continue;
      }
      Matcher matcher = MONTH_DAY.matcher(held.text());
      if (matcher.find()) {
        int month = Integer.parseInt(matcher.group(1));
        return month > modified.getMonthValue() ? modified.getYear() - 1 : modified.getYear();
      }
    }
    return modified.getYear();
  }

  /** Gives every held line, in order, to {@code receiver}. */
  void replay(LineSplitter.Receiver receiver) {
    for (Held held : lines) {
      if (held.text() != null) {
        receiver.line(held.text(), held.number(), held.offset());
      } else {
        receiver.invalid(held.number(), held.offset(), held.reason(), held.rawBytes());
      }
    }
    lines.clear();
  }

  /** The held lines' text, one per line: what a client format is recognized from. */
  byte[] bytes() {
    return String.join("\n", texts()).getBytes(java.nio.charset.StandardCharsets.UTF_8);
  }

  private List<String> texts() {
    List<String> texts = new ArrayList<>(lines.size());
    for (Held held : lines) {
      if (held.text() != null) {
        texts.add(held.text());
      }
    }
    return texts;
  }

  private record Held(
      @Nullable String text, byte @Nullable [] raw, String reason, long number, long offset) {
    byte[] rawBytes() {
      return raw == null ? new byte[0] : raw;
    }
  }
}
