/**
 * Table descriptors in plain Java: one {@link dev.tokentrace.table.TableSchema} per stored table, a
 * list of {@link dev.tokentrace.table.Column}s (name, DuckDB type, accessor, nullability) kept next
 * to the record a row comes from. Writers (Appender rows), the JSON decoder of the sink and the DDL
 * are derived from them, so a column is named in one place. Imports nothing but the JDK: no
 * database, no Kafka.
 */
@NullMarked
package dev.tokentrace.table;

import org.jspecify.annotations.NullMarked;
