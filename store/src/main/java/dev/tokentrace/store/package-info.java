/**
 * The store: {@link dev.tokentrace.store.Database} opens an analysis file with the schema of {@code
 * sql/schema/} applied by the one schema applier ({@link
 * dev.tokentrace.store.Database#applySchema}), {@link dev.tokentrace.store.SqlCatalog} loads the
 * SQL of {@code sql/} (packed into this module's jar only) by name. Must not import ingest,
 * correlate, report or Kafka: ingest and correlate meet here.
 */
@NullMarked
package dev.tokentrace.store;

import org.jspecify.annotations.NullMarked;
