/**
 * The simulator as a live OpenAI-compatible HTTP server ({@code tokentrace simulate --serve}): it
 * streams completions in real time as {@link dev.tokentrace.simulator.LiveEngine} schedules them
 * and writes the engine's logs and the server's ground truth as it goes. Uses only the JDK's HTTP
 * server; knows nothing of Kafka, DuckDB or the CLI.
 */
@NullMarked
package dev.tokentrace.simulator.live;

import org.jspecify.annotations.NullMarked;
