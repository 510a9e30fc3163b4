package dev.tokentrace.report.load;

import java.sql.SQLException;
import java.time.temporal.ChronoUnit;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.SqlLogger;
import org.jdbi.v3.core.statement.StatementContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A profile of the report's statements, for benchmarks (BENCHMARKS.md): with this class's logger at
 * debug ({@code -Dorg.slf4j.simpleLogger.log.dev.tokentrace.report.load.StatementTimes=debug}),
 * every statement the report runs (and {@code correlate} runs for it) logs its name (or the start
 * of its SQL), its parameters, and its time from execution to the last row read and mapped. Off (no
 * logger installed) otherwise.
 */
final class StatementTimes implements SqlLogger {
  private static final Logger log = LoggerFactory.getLogger(StatementTimes.class);

  private StatementTimes() {}

  /** Installs the profile on {@code handle} when its logger is at debug. */
  static void install(Handle handle) {
    if (log.isDebugEnabled()) {
      handle.setSqlLogger(new StatementTimes());
    }
  }

  @Override
  public void logAfterExecution(StatementContext context) {
    long executed = context.getElapsedTime(ChronoUnit.MILLIS);
    long started = System.nanoTime() - executed * 1_000_000;
    // logged when the statement is closed: after its rows were read and mapped
    context.addCleanable(
        () ->
            log.debug(
                "statement {} ms ({} ms executing): {} {}",
                (System.nanoTime() - started) / 1_000_000,
                executed,
                name(context.getRawSql()),
                context.getBinding()));
  }

  @Override
  public void logException(StatementContext context, SQLException ex) {
    log.debug(
        "statement failed after {} ms: {}",
        context.getElapsedTime(ChronoUnit.MILLIS),
        name(context.getRawSql()));
  }

  /** The catalog name of a named SQL file ({@code -- report/throughput: ...}), else its start. */
  private static String name(String sql) {
    String first = sql.strip().lines().findFirst().orElse("");
    if (first.startsWith("-- ")) {
      int colon = first.indexOf(':');
      return colon > 0 ? first.substring(3, colon) : first;
    }
    return first.length() > 60 ? first.substring(0, 60) : first;
  }
}
