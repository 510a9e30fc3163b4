package dev.tokentrace.ingest.sink;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.EventTable;
import dev.tokentrace.event.EventTables;
import dev.tokentrace.ingest.kafka.Topics;
import dev.tokentrace.ingest.tail.TailOutput;
import dev.tokentrace.parse.RejectRow;
import dev.tokentrace.parse.Rejection;
import dev.tokentrace.table.TableSchema;
import java.sql.SQLException;
import java.time.Instant;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Batch ingest without Kafka (docs/design.md#embedded-broker): a file's events and rejections go
 * straight into the sink's DuckDB file, into the tables and through the Appenders the Kafka sink
 * uses, and its {@code ingest_files} row says {@code loaded} in the <b>same transaction</b> as its
 * rows. The ledger row is the statement that opens the transaction, so the Appenders write into it
 * (docs/design.md#appender-and-transactions); a crash before the commit leaves neither rows nor a
 * ledger entry, and the next run loads the file whole. Rows are the ones the Kafka sink writes: the
 * same event objects, and the rejects row built as {@link RecordWriter} builds it from a rejects
 * record (path, line, offset, engine, reason, excerpt of the raw line). Not thread-safe.
 */
public final class DirectLoad implements AutoCloseable {
  private final SinkDatabase database;
  private final RecordWriter decoder;

  private DirectLoad(SinkDatabase database, RecordWriter decoder) {
    this.database = database;
    this.decoder = decoder;
  }

  /**
   * Opens (or creates) the DuckDB file with the schema, as the sink does.
   *
   * @throws IllegalStateException naming the file when it cannot be opened
   */
  public static DirectLoad open(SinkSettings settings) {
    return new DirectLoad(
        SinkDatabase.open(requireNonNull(settings, "settings is null")),
        new RecordWriter(Topics.defaults()));
  }

  /**
   * Starts one file's transaction: marks it {@code loaded} and, for a file loaded before (or in
   * part by an interrupted run), removes its stored rows. Commit or roll back the returned load
   * before beginning the next.
   *
   * @param ingested stamps {@code rejects.ingested_ts}
   */
  public FileLoad begin(LoadedFiles.Decision decision, Instant ingested) {
    requireNonNull(decision, "decision is null");
    try {
      LoadedFiles.mark(database.connection(), decision, "loaded");
      long removed =
          decision.action() == LoadedFiles.Action.LOAD
              ? 0
              : LoadedFiles.removeRows(database.connection(), decision.file());
      return new FileLoad(database.appenders(), removed, requireNonNull(ingested));
    } catch (SQLException | RuntimeException e) {
      throw rollBack("cannot begin loading " + decision.file().path(), e);
    }
  }

  @Override
  public void close() {
    try {
      database.close();
    } catch (SQLException e) {
      throw new IllegalStateException(
          "duckdb " + database.path() + ": cannot close: " + e.getMessage(), e);
    }
  }

  private IllegalStateException rollBack(String what, Exception cause) {
    IllegalStateException failure =
        new IllegalStateException(
            "duckdb " + database.path() + ": " + what + ": " + cause.getMessage(), cause);
    try {
      database.rollback();
    } catch (SQLException e) {
      failure.addSuppressed(e);
    }
    return failure;
  }

  /** One file's open transaction: takes the parser's output as rows. */
  public final class FileLoad implements TailOutput {
    private final Appenders appenders;
    private final long removed;
    private final Instant ingested;
    private final Map<TableSchema<?>, Long> written = new IdentityHashMap<>();
    private @Nullable RuntimeException failure;

    private FileLoad(Appenders appenders, long removed, Instant ingested) {
      this.appenders = appenders;
      this.removed = removed;
      this.ingested = ingested;
    }

    /** Rows of the file stored before that this transaction removes. */
    public long removed() {
      return removed;
    }

    /**
     * Stores the event as the Kafka sink would after its JSON round trip: the event contract's
     * timestamps carry milliseconds (docs/design.md#events) while a parser's object may hold
     * microseconds (vLLM's OTLP span times), so appending the object directly gave {@code
     * request_timing} rows whose {@code ts} and {@code arrival_ts} differ from the broker path's
     * below the millisecond (InProcessIngestIT); the broker path's rows are the reference.
     */
    @Override
    public void event(EngineEvent event) {
      EngineEvent stored = decoder.asStored(event);
      EventTable<EngineEvent> table = EventTables.of(stored);
      append(table, stored);
    }

    @Override
    public void rejected(Rejection rejection, byte[] rawLine) {
      append(
          RejectRow.TABLE,
          new RejectRow(
              rejection.position().path(),
              rejection.position().line(),
              rejection.position().offset(),
              rejection.engine() == null ? null : rejection.engine().id(),
              rejection.reason(),
              RecordWriter.excerptOf(rawLine),
              ingested));
    }

    private <R> void append(TableSchema<R> table, R row) {
      if (failure != null) {
        return; // the transaction rolls back; the parser still runs to the file's end
      }
      try {
        appenders.append(table, row);
        written.merge(table, 1L, Long::sum);
      } catch (SQLException | RuntimeException e) {
        failure = new IllegalStateException("appending to " + table.name() + ": " + e, e);
      }
    }

    /**
     * Flushes the Appenders into the transaction and commits rows and ledger together; returns the
     * rows written per event table (every event table, 0 included) and, under {@code rejects}, the
     * rejects rows.
     *
     * @throws IllegalStateException when appending or committing failed (rolled back)
     */
    public Map<String, Long> commit() {
      try {
        appenders.close();
        if (failure != null) {
          throw failure;
        }
        database.commit();
      } catch (SQLException | RuntimeException e) {
        throw rollBack("cannot store the file's rows (rolled back)", e);
      }
      Map<String, Long> rows = new LinkedHashMap<>();
      for (EventTable<?> table : EventTables.ALL) {
        rows.put(table.name(), written.getOrDefault(table, 0L));
      }
      rows.put(RejectRow.TABLE.name(), written.getOrDefault(RejectRow.TABLE, 0L));
      return rows;
    }

    /** Drops the file's rows and ledger change: the file stays as it was before this run. */
    public void rollback() {
      try {
        appenders.close();
      } catch (SQLException e) {
        // rolled back below either way
      }
      try {
        database.rollback();
      } catch (SQLException e) {
        throw new IllegalStateException(
            "duckdb " + database.path() + ": cannot roll back: " + e.getMessage(), e);
      }
    }
  }
}
