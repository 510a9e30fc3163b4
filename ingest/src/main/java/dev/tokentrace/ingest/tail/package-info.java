/**
 * Reading log files: {@link dev.tokentrace.parse.LineSplitter} (pure: bytes to checked lines),
 * {@link dev.tokentrace.ingest.tail.LogFileReader} (plain and gzip files, to their end) and {@link
 * dev.tokentrace.ingest.tail.SourceParser}, which runs an engine's parser over the lines and hands
 * events and rejections to an {@link dev.tokentrace.ingest.tail.TailOutput}. Knows nothing of Kafka
 * or DuckDB.
 */
@NullMarked
package dev.tokentrace.ingest.tail;

import org.jspecify.annotations.NullMarked;
