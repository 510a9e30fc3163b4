/**
 * The Prometheus text exposition format (version 0.0.4), read one line at a time: sample lines with
 * their labels, value and optional timestamp, and the {@code # HELP} / {@code # TYPE} metadata.
 * Pure; used by the GPU parser for DCGM exporter text and by the engine /metrics reader.
 */
@NullMarked
package dev.tokentrace.parse.exposition;

import org.jspecify.annotations.NullMarked;
