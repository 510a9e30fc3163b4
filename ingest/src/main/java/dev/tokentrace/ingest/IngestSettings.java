package dev.tokentrace.ingest;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.ingest.kafka.KafkaSettings;
import dev.tokentrace.parse.LineSplitter;
import java.time.Duration;

/**
 * Settings of an {@link Ingest}. Immutable.
 *
 * @param kafka brokers (none: embedded), topics, client properties
 * @param maxLineBytes {@value LineSplitter#MAX_LINE_BYTES_DOC}
 * @param adminTimeout {@value #ADMIN_TIMEOUT_DOC}
 */
public record IngestSettings(KafkaSettings kafka, int maxLineBytes, Duration adminTimeout) {
  public static final Duration DEFAULT_ADMIN_TIMEOUT = Duration.ofSeconds(30);
  public static final String ADMIN_TIMEOUT_DOC =
      "how long topic creation may take before the run fails (a remote cluster can be slow)";

  public IngestSettings {
    requireNonNull(kafka, "kafka is null");
    requireNonNull(adminTimeout, "adminTimeout is null");
    if (maxLineBytes < 1) {
      throw new IllegalArgumentException("--max-line-bytes must be >= 1: " + maxLineBytes);
    }
    if (adminTimeout.isNegative() || adminTimeout.isZero()) {
      throw new IllegalArgumentException("adminTimeout must be > 0: " + adminTimeout);
    }
  }

  /** Default line limit and timeout with the given Kafka settings. */
  public static IngestSettings of(KafkaSettings kafka) {
    return new IngestSettings(kafka, LineSplitter.DEFAULT_MAX_LINE_BYTES, DEFAULT_ADMIN_TIMEOUT);
  }
}
