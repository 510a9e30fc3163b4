package dev.tokentrace.parse;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * Implemented by an engine parser that dates lines without a time of their own (TensorRT-LLM's C++
 * logger, headerless messages) by the time a log collector wrote in front of them. {@link Parsers}
 * calls it before every line with that line's collector time, or null when the line had none
 * (docs/formats/collectors.md).
 */
public interface CollectorClock {
  void collectorTime(@Nullable Instant ts);
}
