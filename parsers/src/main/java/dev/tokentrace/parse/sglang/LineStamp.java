package dev.tokentrace.parse.sglang;

import dev.tokentrace.event.SourcePosition;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * When, where and from which rank stream a line is: what its events are stamped with. {@code
 * millisPrecise} says whether {@code ts} may be subtracted from another line's
 * (docs/formats/sglang.md#what-the-logs-give).
 */
record LineStamp(
    @Nullable Instant ts, boolean millisPrecise, @Nullable String rank, SourcePosition position) {}
