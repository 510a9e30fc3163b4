package dev.tokentrace.parse;

import dev.tokentrace.event.SourcePosition;
import org.jspecify.annotations.Nullable;

/**
 * Turns the physical lines of one source (a file, a followed log) into events. One instance per
 * source and not thread-safe: parsers keep per-source state where the format needs it (a traceback
 * folded into one notice, the year of a log without years, consecutive decode lines).
 *
 * <p>Every line is reported to the sink at least once, as one or more events, a named ignore rule
 * or a rejection, possibly later (a grouped record is emitted when the next record starts or at
 * {@link #finish}). Parsers never throw on bad input and never do I/O.
 *
 * <p>Why a sink and not a return value: one line may yield several events (an OTLP export line
 * holds many spans) or none yet (the first line of a traceback), so a push interface is both
 * simpler and allocation-free on the hot path.
 */
public interface LineParser {
  /**
   * Parses one physical line.
   *
   * @param line the line without its terminator; a trailing {@code \r} may still be present
   * @param position where the line starts
   */
  void parse(String line, SourcePosition position, ParseOutput sink);

  /** End of the source: emit anything still pending. */
  default void finish(ParseOutput sink) {}

  /**
   * For a line read while a prompt printed over several lines is still open: where the line's own
   * text starts (after a header the engine repeats on continuation lines), or -1 when the line
   * starts a new record, which ends the prompt. Called before {@link #parse} of that line, with the
   * state the previous lines left. The default: the whole line continues.
   */
  default int continuationStart(String line) {
    return 0;
  }

  /**
   * Whether the next line continues a prompt printed over several lines (its text is user data);
   * only guarded parsers ({@link Parsers#create}) know.
   */
  default boolean insideUserText() {
    return false;
  }

  /**
   * What a parser resumed at a later line of the same source needs from the lines before it, or
   * null when nothing (a GPU telemetry file's headers:
   * docs/formats/gpu.md#following-across-restarts). A follower stores it with the file's read
   * position and gives it back with {@link #resume}. Plain text; never holds prompt or response
   * text.
   */
  default @Nullable String state() {
    return null;
  }

  /** Called once, before the first line, on a parser resumed mid-source with its {@link #state}. */
  default void resume(String state) {}
}
