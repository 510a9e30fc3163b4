package dev.tokentrace.ingest.kafka;

/**
 * Kafka stayed unreachable until the caller gave up waiting (a shipper asked to stop while its
 * broker is down). What was not committed is shipped again from the checkpoint on the next run.
 */
public final class KafkaUnavailableException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  public KafkaUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
