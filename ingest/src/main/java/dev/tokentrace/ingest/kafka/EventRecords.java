package dev.tokentrace.ingest.kafka;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.json.EventJson;
import dev.tokentrace.parse.Rejection;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Headers;

/**
 * The Kafka records of events and rejections, the same for batch and transactional shipping: an
 * event goes to {@code <prefix>.events} keyed by {@link EngineEvent#kafkaKey()}; a rejection to
 * {@code <prefix>.rejects} keyed by its path, the raw line as value and {@link RejectHeaders}.
 */
final class EventRecords {
  private EventRecords() {}

  static ProducerRecord<String, byte[]> event(Topics topics, EngineEvent event) {
    byte[] value = EventJson.write(event).getBytes(UTF_8);
    return new ProducerRecord<>(topics.events(), event.kafkaKey(), value);
  }

  static ProducerRecord<String, byte[]> rejected(
      Topics topics, Rejection rejection, byte[] rawLine) {
    ProducerRecord<String, byte[]> record =
        new ProducerRecord<>(topics.rejects(), rejection.position().path(), rawLine);
    Headers headers = record.headers();
    headers.add(RejectHeaders.PATH, utf8(rejection.position().path()));
    headers.add(RejectHeaders.LINE, utf8(Long.toString(rejection.position().line())));
    headers.add(RejectHeaders.OFFSET, utf8(Long.toString(rejection.position().offset())));
    if (rejection.engine() != null) {
      headers.add(RejectHeaders.ENGINE, utf8(rejection.engine().id()));
    }
    headers.add(RejectHeaders.REASON, utf8(rejection.reason()));
    return record;
  }

  private static byte[] utf8(String text) {
    return text.getBytes(UTF_8);
  }
}
