package dev.tokentrace.ingest.sink;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.tokentrace.clients.ClientRowJson;
import dev.tokentrace.event.BatchStep;
import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.EventTable;
import dev.tokentrace.event.EventTables;
import dev.tokentrace.event.Redaction;
import dev.tokentrace.event.json.EventJson;
import dev.tokentrace.ingest.kafka.RejectHeaders;
import dev.tokentrace.ingest.kafka.Topics;
import dev.tokentrace.parse.RejectRow;
import dev.tokentrace.parse.Rejection;
import dev.tokentrace.table.TableSchema;
import java.sql.SQLException;
import java.time.Instant;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns one Kafka record into one row: an event record into its event table, a client rows record
 * into {@code client_timing}, a rejects record into {@code rejects} (position and reason from its
 * {@link RejectHeaders}, excerpt from its raw value). An events record that is not a valid event
 * (written by something else than tokentrace, or by an incompatible version) is bad input, not a
 * failure: it becomes a {@code rejects} row {@value #UNDECODABLE} with source {@code
 * kafka:<topic>-<partition>} and the Kafka offset as byte offset. Not thread-safe.
 */
final class RecordWriter {
  static final String UNDECODABLE = "undecodable event record";

  private static final Logger log = LoggerFactory.getLogger(RecordWriter.class);
  private static final int LOGGED_UNDECODABLE = 10;

  private final Topics topics;
  private final EventDecoder decoder = new EventDecoder();
  private long undecodable;
  private long loggedUndecodable;

  RecordWriter(Topics topics) {
    this.topics = topics;
  }

  /** Appends the record's row and returns its table. */
  TableSchema<?> write(
      ConsumerRecord<String, byte[]> record, RowAppender appenders, Instant ingested)
      throws SQLException {
    if (record.topic().equals(topics.clients())) {
      return client(record, appenders, ingested);
    }
    if (!record.topic().equals(topics.events())) {
      appenders.append(RejectRow.TABLE, reject(record, ingested));
      return RejectRow.TABLE;
    }
    EngineEvent event;
    try {
      event = decode(record.value());
    } catch (IllegalArgumentException e) {
      appenders.append(RejectRow.TABLE, undecodable(record, e, ingested));
      return RejectRow.TABLE;
    }
    EventTable<EngineEvent> table = EventTables.of(event);
    appenders.append(table, event);
    return table;
  }

  /**
   * A client rows record into {@code client_timing} (docs/storage.md#client-rows-in-kafka); one
   * that is no client row is a reject, as an undecodable event is.
   */
  private TableSchema<?> client(
      ConsumerRecord<String, byte[]> record, RowAppender appenders, Instant ingested)
      throws SQLException {
    Object[] row;
    try {
      if (record.value() == null) {
        throw new IllegalArgumentException("null value");
      }
      row = ClientRowJson.read(record.value());
    } catch (IllegalArgumentException e) {
      appenders.append(RejectRow.TABLE, undecodable(record, e, ingested));
      return RejectRow.TABLE;
    }
    appenders.append(ClientRowJson.TABLE, row);
    return ClientRowJson.TABLE;
  }

  /** Undecodable records written since the last call. */
  long takeUndecodable() {
    long count = undecodable;
    undecodable = 0;
    return count;
  }

  /**
   * The event as a sink reads it back from its record value: what the in-process load stores, so
   * that its rows are the broker path's ({@link DirectLoad}).
   */
  EngineEvent asStored(EngineEvent event) {
    if (event instanceof BatchStep step && roundTripsUnchanged(step)) {
      return step;
    }
    return roundTrip(event);
  }

  /** The event decoded from its record value, as the sink reads it. */
  EngineEvent roundTrip(EngineEvent event) {
    return decode(EventJson.write(event).getBytes(UTF_8));
  }

  /**
   * Whether a batch step comes back from its JSON round trip equal to itself, so that {@link
   * #asStored} may skip the round trip (nine in ten events of a vLLM iteration log; the encode and
   * decode were a fifth of {@code ingest}'s main thread, BENCHMARKS.md "Ingest and TensorRT-LLM
   * JSON, round 7"). The round trip only changes a time below the millisecond or outside the years
   * {@link EventJson#formatCanonical} writes itself, and a lone surrogate in a text (UTF-8 has
   * none); numbers, the phase and the flag come back exactly (docs/design.md#events).
   */
  static boolean roundTripsUnchanged(BatchStep step) {
    Instant ts = step.ts();
    return (ts == null || EventJson.isCanonicalMillis(ts))
        && noSurrogate(step.instance())
        && noSurrogate(step.source().path())
        && (step.rank() == null || noSurrogate(step.rank()));
  }

  private static boolean noSurrogate(String text) {
    for (int i = 0; i < text.length(); i++) {
      if (Character.isSurrogate(text.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  private EngineEvent decode(byte @Nullable [] value) {
    if (value == null) {
      throw new IllegalArgumentException("null value");
    }
    EngineEvent event = decoder.decode(value);
    if (event == null) {
      event = EventJson.read(new String(value, UTF_8));
    }
    if (event == null) { // the JSON literal null: no event, and no reason to fail the batch
      throw new IllegalArgumentException("not a tokentrace event: null");
    }
    return event;
  }

  private static RejectRow reject(ConsumerRecord<String, byte[]> record, Instant ingested) {
    String path = header(record, RejectHeaders.PATH);
    String reason = header(record, RejectHeaders.REASON);
    return new RejectRow(
        path == null ? origin(record) : path,
        number(header(record, RejectHeaders.LINE)),
        number(header(record, RejectHeaders.OFFSET)),
        header(record, RejectHeaders.ENGINE),
        reason == null ? "no reason header" : reason,
        excerptOf(record.value()),
        ingested);
  }

  private RejectRow undecodable(
      ConsumerRecord<String, byte[]> record, IllegalArgumentException cause, Instant ingested) {
    undecodable++;
    if (loggedUndecodable++ < LOGGED_UNDECODABLE) {
      // Jackson's message quotes the bad input, which may hold a secret (docs/privacy.md#secrets)
      log.warn(
          "{}@{}: {}: {}",
          origin(record),
          record.offset(),
          UNDECODABLE,
          Redaction.apply(String.valueOf(cause.getMessage())));
    }
    return new RejectRow(
        origin(record),
        0L,
        record.offset(),
        null,
        UNDECODABLE,
        excerptOf(record.value()),
        ingested);
  }

  private static String origin(ConsumerRecord<?, ?> record) {
    return "kafka:" + record.topic() + "-" + record.partition();
  }

  private static @Nullable String header(ConsumerRecord<?, ?> record, String name) {
    Header header = record.headers().lastHeader(name);
    return header == null || header.value() == null ? null : new String(header.value(), UTF_8);
  }

  /** A decimal header as a number; 0 when absent or malformed (the row is kept either way). */
  private static long number(@Nullable String text) {
    if (text == null) {
      return 0;
    }
    try {
      return Long.parseLong(text.strip());
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /** The raw line as excerpt: lenient UTF-8, NUL as U+FFFD, capped like every excerpt. */
  static String excerptOf(byte @Nullable [] value) {
    if (value == null) {
      return "";
    }
    int length = Math.min(value.length, 4 * Rejection.MAX_EXCERPT);
    return Rejection.excerptOf(new String(value, 0, length, UTF_8).replace('\0', '\uFFFD'));
  }
}
