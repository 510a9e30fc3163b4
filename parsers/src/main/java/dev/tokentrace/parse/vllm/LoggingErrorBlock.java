package dev.tokentrace.parse.vllm;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.EngineStats;
import dev.tokentrace.event.SourcePosition;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * Python's own report of a record it could not format, printed to stderr instead of the record:
 * {@code --- Logging error ---}, a traceback, {@code Call stack:}, {@code Message: '...'} and
 * {@code Arguments: (...)}. vLLM's V0 stats format of a88081bf7 (2024-04-26, fixed by 87f545ba6)
 * had an unescaped {@code %} and produced exactly this on every interval
 * (docs/formats/vllm.md#v0-stats-line). When the message is that stats format, the arguments tuple
 * still holds the numbers, so the block becomes the engine_stats event the line would have been;
 * its time is the last logged time. Every other line of a block is ignored under {@link #RULE}. Not
 * thread-safe.
 */
final class LoggingErrorBlock {
  static final String RULE = "python: logging error";
  static final String START = "--- Logging error ---";
  private static final String STATS_MESSAGE = "Message: 'Avg prompt throughput: %.1f tokens/s, ";
  private static final String ARGUMENTS = "Arguments: (";

  /** A block never spans more lines than this; a lost end must not swallow the rest of a log. */
  private static final int MAX_LINES = 400;

  private int lines = -1;
  private boolean statsMessage;

  boolean isOpen() {
    return lines >= 0;
  }

  /** Starts a block at its first line. */
  void open() {
    lines = 0;
    statsMessage = false;
  }

  /** Takes one line of an open block; returns the stats it completes, or null. */
  @Nullable Result take(String body, Context context) {
    if (++lines > MAX_LINES) {
      lines = -1;
      return null;
    }
    if (body.startsWith(STATS_MESSAGE)) {
      statsMessage = true;
    }
    if (!body.startsWith(ARGUMENTS)) {
      return null;
    }
    lines = -1;
    return statsMessage ? stats(body, context) : null;
  }

  /** Where the stats event goes. */
  record Context(String instance, SourcePosition position, @Nullable Instant ts) {}

  /** A rebuilt stats event, or the reason the arguments could not be read. */
  record Result(@Nullable EngineStats stats, @Nullable String problem) {}

  /**
   * {@code Arguments: (0.0, 12.3, 1, 0, 0, 4.5, 0.0)}: prompt, generation, running, swapped,
   * pending, GPU and CPU KV cache usage in percent.
   */
  private static Result stats(String body, Context context) {
    if (!body.endsWith(")") || body.length() > 512) {
      return new Result(null, "stats line: bad arguments");
    }
    String[] values = body.substring(ARGUMENTS.length(), body.length() - 1).split(", ", -1);
    if (values.length != 7) {
      return new Result(null, "stats line: bad arguments");
    }
    double[] numbers = new double[7];
    for (int i = 0; i < 7; i++) {
      numbers[i] = number(values[i], i >= 2 && i <= 4);
      if (Double.isNaN(numbers[i])) {
        return new Result(null, "stats line: bad arguments");
      }
    }
    EngineStats stats =
        new EngineStats(
            Engine.VLLM,
            context.instance(),
            context.ts(),
            context.position(),
            null,
            null,
            numbers[0],
            numbers[1],
            (int) numbers[2],
            (int) numbers[4],
            (int) numbers[3],
            numbers[5],
            null,
            null);
    return new Result(stats, null);
  }

  /** A non-negative finite Python float or int repr, NaN when it is not one. */
  private static double number(String text, boolean integer) {
    if (integer) {
      int value = Decimals.integer(text, 0, text.length());
      return value >= 0 ? value : Double.NaN;
    }
    boolean plain = !text.isEmpty();
    for (int i = 0; i < text.length() && plain; i++) {
      char c = text.charAt(i);
      plain = Ascii.isDigit(c) || c == '.' || c == 'e' || c == '-' || c == '+';
    }
    if (!plain || !Ascii.isDigit(text.charAt(0))) {
      return Double.NaN;
    }
    try {
      double value = Double.parseDouble(text);
      return Double.isFinite(value) ? value : Double.NaN;
    } catch (NumberFormatException e) {
      // the characters are right but the shape is not (e.g. "1e"): not a Python float repr
      return Double.NaN;
    }
  }
}
