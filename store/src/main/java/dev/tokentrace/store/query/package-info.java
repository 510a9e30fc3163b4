/**
 * The runner behind {@code tokentrace sql}: {@link dev.tokentrace.store.query.NamedQueryRunner}
 * runs a named query of {@code sql/queries/} or ad-hoc SQL read-only and prints it as a table, CSV
 * or JSON; {@link dev.tokentrace.store.query.QueryRows} maps a named query's rows to records for
 * the report. Must not import ingest, correlate or report.
 */
@NullMarked
package dev.tokentrace.store.query;

import org.jspecify.annotations.NullMarked;
