/**
 * The Parquet lake, the live store (docs/storage.md#the-parquet-lake): {@link
 * dev.tokentrace.store.lake.LakeWriter} stages rows per Kafka partition in an in-memory DuckDB and
 * writes them with DuckDB's {@code COPY … (FORMAT parquet)}, temp name then rename, committing each
 * partition's range with a manifest; {@link dev.tokentrace.store.lake.Lake} gives readers one view
 * per table over a non-overlapping set of committed files; {@link
 * dev.tokentrace.store.lake.LakeCompactor} merges small files. Knows nothing of Kafka: a partition
 * is a {@link dev.tokentrace.store.lake.LakePartition} (topic name and number).
 */
@NullMarked
package dev.tokentrace.store.lake;

import org.jspecify.annotations.NullMarked;
