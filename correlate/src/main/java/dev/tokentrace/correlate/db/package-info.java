/**
 * DuckDB wiring for correlate: {@link dev.tokentrace.correlate.db.Database} opens an analysis file
 * with the shared schema applied, {@link dev.tokentrace.correlate.db.SqlCatalog} loads the SQL of
 * {@code sql/} by name, and {@link dev.tokentrace.correlate.db.SqlRunner} runs a named query for
 * {@code tokentrace sql}. Must not import ingest or Kafka: correlate meets ingest at the schema.
 */
@NullMarked
package dev.tokentrace.correlate.db;

import org.jspecify.annotations.NullMarked;
