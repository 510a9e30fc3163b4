package dev.tokentrace.parse;

import static dev.tokentrace.table.ColumnType.BIGINT;
import static dev.tokentrace.table.ColumnType.TIMESTAMP;
import static dev.tokentrace.table.ColumnType.VARCHAR;
import static java.util.Objects.requireNonNull;

import dev.tokentrace.event.Redaction;
import dev.tokentrace.table.TableSchema;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * One row of {@code rejects}, as the sink and the client loader store a {@link Rejection}: {@code
 * lineNo} and {@code byteOffset} may be 0 where the position is unknown (a Kafka record that was no
 * event), {@code engine} is an engine id, {@code client}, or null (no format recognized). Reason
 * and excerpt pass through {@link Redaction} whoever built the row (docs/privacy.md#secrets).
 */
public record RejectRow(
    String sourcePath,
    long lineNo,
    long byteOffset,
    @Nullable String engine,
    String reason,
    String excerpt,
    Instant ingestedTs) {
  public static final TableSchema<RejectRow> TABLE =
      new TableSchema<>(
          "rejects",
          TableSchema.columns(RejectRow.class)
              .required("source_path", VARCHAR, RejectRow::sourcePath)
              .required("line_no", BIGINT, RejectRow::lineNo)
              .required("byte_offset", BIGINT, RejectRow::byteOffset)
              .optional("engine", VARCHAR, RejectRow::engine)
              .required("reason", VARCHAR, RejectRow::reason)
              .required("excerpt", VARCHAR, RejectRow::excerpt)
              .required("ingested_ts", TIMESTAMP, RejectRow::ingestedTs)
              .list());

  public RejectRow {
    requireNonNull(sourcePath, "sourcePath is null");
    requireNonNull(reason, "reason is null");
    requireNonNull(excerpt, "excerpt is null");
    requireNonNull(ingestedTs, "ingestedTs is null");
    // the store's boundary: a row from another shipper's record is redacted here too
    reason = Redaction.apply(reason);
    excerpt = Redaction.apply(excerpt);
  }
}
