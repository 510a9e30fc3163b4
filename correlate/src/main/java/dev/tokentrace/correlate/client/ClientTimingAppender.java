package dev.tokentrace.correlate.client;

import dev.tokentrace.clients.ClientReaderOutput;
import dev.tokentrace.clients.ClientRejection;
import dev.tokentrace.clients.ClientTiming;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.parse.RejectRow;
import dev.tokentrace.store.TableAppender;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Appends one file's rows to {@code client_timing} and its rejections to {@code rejects}, counting
 * both and keeping the first messages, through the tables' descriptors ({@link ClientTiming#TABLE},
 * {@link RejectRow#TABLE}). Not thread-safe: one per file.
 */
final class ClientTimingAppender implements ClientReaderOutput {
  private static final Logger log = LoggerFactory.getLogger(ClientTimingAppender.class);

  /** Where and as what the rows go: the Appenders of one transaction and the run's values. */
  record Target(
      TableAppender rows,
      TableAppender rejects,
      String runId,
      String format,
      @Nullable Integer defaultConcurrency,
      Instant ingested) {}

  private final TableAppender rows;
  private final TableAppender rejects;
  private final String runId;
  private final String format;
  private final @Nullable Integer defaultConcurrency;
  private final Instant ingested;
  private final List<String> messages;
  private long rowCount;
  private long rejectedCount;

  ClientTimingAppender(Target target, List<String> messages) {
    this.rows = target.rows();
    this.rejects = target.rejects();
    this.runId = target.runId();
    this.format = target.format();
    this.defaultConcurrency = target.defaultConcurrency();
    this.ingested = target.ingested();
    this.messages = messages;
  }

  @Override
  public void row(ClientTiming timing) {
    ClientTiming row = timing.withDefaultConcurrency(defaultConcurrency);
    try {
      rows.append(ClientTiming.TABLE, new ClientTiming.Stored(runId, format, row));
    } catch (SQLException e) {
      throw new IllegalStateException("cannot append " + row.source() + " to client_timing", e);
    }
    rowCount++;
  }

  @Override
  public void rejected(ClientRejection rejection) {
    SourcePosition position = rejection.position();
    RejectRow row =
        new RejectRow(
            position.path(),
            position.line(),
            position.offset(),
            ClientRejection.ENGINE,
            rejection.reason(),
            rejection.excerpt(),
            ingested);
    try {
      rejects.append(RejectRow.TABLE, row);
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
}
