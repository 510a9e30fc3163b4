package dev.tokentrace.ingest.kafka;

/**
 * Header names of records on the rejects topic, whose value is the raw rejected line (dead-letter
 * headers in the style of Kafka Connect's {@code __connect.errors.*}). All values are UTF-8 text;
 * {@link #ENGINE} is absent when no engine format was recognized.
 */
public final class RejectHeaders {
  /** The source file as the user named it. */
  public static final String PATH = "x-reject.path";

  /** 1-based line number, decimal. */
  public static final String LINE = "x-reject.line";

  /** Byte offset of the line's first byte, decimal. */
  public static final String OFFSET = "x-reject.offset";

  /** Engine id ({@code vllm}, {@code sglang}, {@code trtllm}). */
  public static final String ENGINE = "x-reject.engine";

  /** The short, stable rejection reason. */
  public static final String REASON = "x-reject.reason";

  private RejectHeaders() {}
}
