package dev.tokentrace.ingest.sink;

import dev.tokentrace.table.TableSchema;
import java.sql.SQLException;

/**
 * Where {@link RecordWriter} puts a decoded row: the DuckDB file's Appenders of one batch, or the
 * lake writer's staging of one Kafka partition.
 */
interface RowAppender {
  <R> void append(TableSchema<R> table, R row) throws SQLException;
}
