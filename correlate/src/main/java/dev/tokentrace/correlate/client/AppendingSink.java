package dev.tokentrace.correlate.client;

import dev.tokentrace.event.SourcePosition;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.duckdb.DuckDBAppender;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Appends one file's rows to {@code client_timing} and its rejections to {@code rejects}, counting
 * both and keeping the first messages for the caller to print (each once; they are logged only at
 * DEBUG). Column order follows schema/002 and schema/003. Not thread-safe: one per file.
 */
final class AppendingSink implements ClientTimingSink {
  private static final Logger log = LoggerFactory.getLogger(AppendingSink.class);

  /** Where and as what the rows go: the Appenders of one transaction and the run's values. */
  record Target(
      DuckDBAppender rows,
      DuckDBAppender rejects,
      String runId,
      String format,
      @Nullable Integer defaultConcurrency,
      Instant ingested) {}

  private final DuckDBAppender rows;
  private final DuckDBAppender rejects;
  private final String runId;
  private final String format;
  private final @Nullable Integer defaultConcurrency;
  private final LocalDateTime ingested;
  private final List<String> messages;
  private long rowCount;
  private long rejectedCount;

  AppendingSink(Target target, List<String> messages) {
    this.rows = target.rows();
    this.rejects = target.rejects();
    this.runId = target.runId();
    this.format = target.format();
    this.defaultConcurrency = target.defaultConcurrency();
    this.ingested = utc(target.ingested());
    this.messages = messages;
  }

  @Override
  public void row(ClientTiming timing) {
    ClientTiming row = timing.withDefaultConcurrency(defaultConcurrency);
    try {
      rows.beginRow()
          .append(runId)
          .append(format)
          .append(row.source().path())
          .append(row.source().line())
          .append(row.requestId())
          .append(row.requestKey());
      timestamp(rows, row.startTs());
      number(rows, row.startMonoS());
      number(rows, row.ttftMs());
      number(rows, row.e2eMs());
      number(rows, row.outputTokens());
      number(rows, row.clientQueueMs());
      number(rows, row.promptTokens());
      number(rows, row.concurrency());
      rows.append(row.status()).append(row.warmup()).append(row.idKind().id());
      ClientDetail detail = row.detail();
      number(rows, detail.ackMs());
      number(rows, detail.connectMs());
      number(rows, detail.sendMs());
      number(rows, detail.waitMs());
      number(rows, detail.receiveMs());
      number(rows, detail.chunks());
      number(rows, detail.itlMaxMs());
      rows.append(row.vantage());
      GatewayDetail gateway = row.gateway();
      if (gateway == null) {
        for (int i = 0; i < 6; i++) {
          rows.appendNull();
        }
      } else {
        number(rows, gateway.httpStatus());
        number(rows, gateway.upstreamConnectMs());
        number(rows, gateway.upstreamHeaderMs());
        number(rows, gateway.upstreamResponseMs());
        number(rows, gateway.upstreamAttempts());
        text(rows, gateway.upstreamAddr());
      }
      rows.endRow();
    } catch (SQLException e) {
      throw new IllegalStateException("cannot append " + row.source() + " to client_timing", e);
    }
    rowCount++;
  }

  @Override
  public void rejected(ClientRejection rejection) {
    SourcePosition position = rejection.position();
    try {
      rejects
          .beginRow()
          .append(position.path())
          .append(position.line())
          .append(position.offset())
          .append(ClientRejection.ENGINE)
          .append(rejection.reason())
          .append(rejection.excerpt())
          .append(ingested)
          .endRow();
    } catch (SQLException e) {
      throw new IllegalStateException("cannot append " + position + " to rejects", e);
    }
    rejectedCount++;
    // the command prints the kept messages: logging them as well printed each one twice
    log.debug("{}", rejection.message());
    keep(rejection.message());
  }

  @Override
  public void warning(SourcePosition position, String message) {
    String text = position + ": " + ClientRejection.ENGINE + ": " + message;
    log.debug("{}", text);
    keep(text);
  }

  long rows() {
    return rowCount;
  }

  long rejected() {
    return rejectedCount;
  }

  private void keep(String message) {
    if (messages.size() < ClientTimingLoader.MAX_MESSAGES) {
      messages.add(message);
    }
  }

  private static void timestamp(DuckDBAppender appender, @Nullable Instant value)
      throws SQLException {
    if (value == null) {
      appender.appendNull();
    } else {
      appender.append(utc(value));
    }
  }

  private static void text(DuckDBAppender appender, @Nullable String value) throws SQLException {
    if (value == null) {
      appender.appendNull();
    } else {
      appender.append(value);
    }
  }

  private static void number(DuckDBAppender appender, @Nullable Number value) throws SQLException {
    if (value == null) {
      appender.appendNull();
    } else if (value instanceof Integer) {
      appender.append(value.intValue());
    } else {
      appender.append(value.doubleValue());
    }
  }

  private static LocalDateTime utc(Instant instant) {
    return LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
  }
}
