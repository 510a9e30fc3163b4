package dev.tokentrace.parse;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * Implemented by an engine parser that dates lines without a time of their own (TensorRT-LLM's C++
 * logger, headerless messages) by the time a log collector wrote in front of them. {@link Parsers}
 * calls it before every line with that line's collector time, or null when the line had none
 * (docs/formats/collectors.md), and with the time and level of a wrapper layout around a message
 * body (docs/formats/layouts.md).
 */
public interface CollectorClock {
  void collectorTime(@Nullable Instant ts);

  /**
   * The level a wrapper layout printed before the next line's body ({@code DEBUG}, {@code INFO},
   * {@code WARNING}, {@code ERROR}, {@code CRITICAL}), or null when no layout with a level was
   * removed: the line is then a message body without the engine's own header, to be read by the
   * engine's body grammar (docs/formats/layouts.md). Called after {@link #collectorTime}.
   */
  default void wrapperLevel(@Nullable String level) {}
}
