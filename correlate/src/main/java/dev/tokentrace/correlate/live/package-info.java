/**
 * Attribution over the lake: the lake's committed events copied into the analysis file's event
 * tables ({@link dev.tokentrace.correlate.live.LakeEvents}), then the batch attribution on them,
 * once ({@code correlate --lake}) or every time the lake or the client rows change ({@code
 * correlate --follow}); docs/live.md#live-attribution.
 */
@NullMarked
package dev.tokentrace.correlate.live;

import org.jspecify.annotations.NullMarked;
