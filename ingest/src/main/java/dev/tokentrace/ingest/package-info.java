/**
 * The ingest service the CLI calls: {@link dev.tokentrace.ingest.Ingest} ships log files through
 * Kafka ({@code ship}), sinks Kafka into DuckDB ({@code sink}), or both at once ({@code run}),
 * starting an embedded broker when no brokers are configured. Wires {@code tail}, {@code kafka} and
 * {@code sink}; holds no logic of its own beyond that.
 */
@NullMarked
package dev.tokentrace.ingest;

import org.jspecify.annotations.NullMarked;
