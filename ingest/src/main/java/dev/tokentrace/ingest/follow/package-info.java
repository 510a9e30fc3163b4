/**
 * Following live log files into Kafka, exactly once: {@link dev.tokentrace.ingest.follow.Follower}
 * tails files and globs through rotation (rename and create, copytruncate), parses them as they
 * grow and commits each file's position in the same Kafka transaction as its events, so that a
 * restart resumes where the last commit left off. Uses {@code tail} for reading and {@code kafka}
 * for the transactions; knows nothing of DuckDB.
 */
@NullMarked
package dev.tokentrace.ingest.follow;

import org.jspecify.annotations.NullMarked;
