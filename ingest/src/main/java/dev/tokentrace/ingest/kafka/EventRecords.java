package dev.tokentrace.ingest.kafka;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.tokentrace.clients.ClientRejection;
import dev.tokentrace.clients.ClientRowJson;
import dev.tokentrace.clients.ClientTiming;
import dev.tokentrace.event.BatchStep;
import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.EngineStats;
import dev.tokentrace.event.GpuProcess;
import dev.tokentrace.event.GpuSample;
import dev.tokentrace.event.KvTransfer;
import dev.tokentrace.event.ProxyRequest;
import dev.tokentrace.event.Redaction;
import dev.tokentrace.event.RequestAborted;
import dev.tokentrace.event.RequestArrived;
import dev.tokentrace.event.RequestFinished;
import dev.tokentrace.event.RequestTiming;
import dev.tokentrace.event.ServerConfig;
import dev.tokentrace.event.ServerHistogram;
import dev.tokentrace.event.ServerNotice;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.event.json.EventJson;
import dev.tokentrace.parse.Rejection;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Headers;
import org.jspecify.annotations.Nullable;

/**
 * The Kafka records of events and rejections, the same for batch and transactional shipping: an
 * event goes to {@code <prefix>.events} keyed by {@link #key}; a rejection to {@code
 * <prefix>.rejects} keyed by its path, the raw line as value and {@link RejectHeaders}.
 */
final class EventRecords {
  private EventRecords() {}

  static ProducerRecord<String, byte[]> event(Topics topics, EngineEvent event) {
    byte[] value = EventJson.write(event).getBytes(UTF_8);
    return new ProducerRecord<>(topics.events(), key(event), value);
  }

  /**
   * The record key of an event: the request key for request events (so one request's events share a
   * partition), the instance for everything else (docs/design.md#kafka). Kept here, not in the
   * event model, which knows nothing of Kafka.
   */
  static String key(EngineEvent event) {
    if (event instanceof RequestArrived arrived) {
      return arrived.requestKey();
    } else if (event instanceof RequestFinished finished) {
      return finished.requestKey();
    } else if (event instanceof RequestAborted aborted) {
      return aborted.requestKey();
    } else if (event instanceof RequestTiming timing) {
      return timing.requestKey();
    } else if (event instanceof BatchStep step) {
      return step.instance();
    } else if (event instanceof EngineStats stats) {
      return stats.instance();
    } else if (event instanceof ServerNotice notice) {
      return notice.instance();
    } else if (event instanceof ServerConfig config) {
      return config.instance();
    } else if (event instanceof GpuSample sample) {
      return sample.instance();
    } else if (event instanceof GpuProcess process) {
      return process.instance();
    } else if (event instanceof ServerHistogram histogram) {
      return histogram.instance();
    } else if (event instanceof KvTransfer transfer) {
      // a request's transfer goes with its request, an interval aggregate with its server
      return transfer.requestKey() == null ? transfer.instance() : transfer.requestKey();
    } else if (event instanceof ProxyRequest proxied) {
      // with the servers' records of the request it names
      return proxied.upstreamKey();
    }
    throw new IllegalArgumentException("unknown event type " + event.getClass().getName());
  }

  static ProducerRecord<String, byte[]> rejected(
      Topics topics, Rejection rejection, byte[] rawLine) {
    return rejected(
        topics,
        rejection.position(),
        rejection.engine() == null ? null : rejection.engine().id(),
        rejection.reason(),
        rawLine);
  }

  /**
   * A client file's row: to {@code <prefix>.clients}, keyed by its request key, the value {@link
   * ClientRowJson} (docs/storage.md#client-rows-in-kafka).
   */
  static ProducerRecord<String, byte[]> client(Topics topics, ClientTiming.Stored row) {
    return new ProducerRecord<>(
        topics.clients(), row.timing().requestKey(), ClientRowJson.write(row));
  }

  /**
   * A client file's rejected line: to the rejects topic, engine {@value ClientRejection#ENGINE}.
   */
  static ProducerRecord<String, byte[]> clientRejected(
      Topics topics, ClientRejection rejection, byte[] rawLine) {
    return rejected(
        topics, rejection.position(), ClientRejection.ENGINE, rejection.reason(), rawLine);
  }

  private static ProducerRecord<String, byte[]> rejected(
      Topics topics,
      SourcePosition position,
      @Nullable String engine,
      String reason,
      byte[] rawLine) {
    ProducerRecord<String, byte[]> record =
        new ProducerRecord<>(topics.rejects(), position.path(), Rejection.topicValue(rawLine));
    Headers headers = record.headers();
    headers.add(RejectHeaders.PATH, utf8(position.path()));
    headers.add(RejectHeaders.LINE, utf8(Long.toString(position.line())));
    headers.add(RejectHeaders.OFFSET, utf8(Long.toString(position.offset())));
    if (engine != null) {
      headers.add(RejectHeaders.ENGINE, utf8(engine));
    }
    headers.add(RejectHeaders.REASON, utf8(Redaction.apply(reason)));
    return record;
  }

  private static byte[] utf8(String text) {
    return text.getBytes(UTF_8);
  }
}
