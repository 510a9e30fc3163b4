package dev.tokentrace.ingest.scrape;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * What one scrape may take (docs/live.md#limits-of-scrape): a response longer than {@code maxBytes}
 * or with a line longer than {@code maxLineBytes} is refused, and the whole request (connect,
 * headers and body) must be done within {@code deadline}. A refused scrape appends nothing.
 *
 * @param maxBytes longest accepted response body in bytes
 * @param maxLineBytes longest accepted line of the body in bytes
 * @param deadline time for the whole request, from connecting to the body's last byte
 */
public record ScrapeLimits(long maxBytes, int maxLineBytes, Duration deadline) {
  /** Default body cap: 16 MiB, far above an engine's /metrics (tens to hundreds of KiB). */
  public static final long DEFAULT_MAX_BYTES = 16L * 1024 * 1024;

  /** Default line cap: 64 KiB, far above a sample line with every label an engine sets. */
  public static final int DEFAULT_MAX_LINE_BYTES = 64 * 1024;

  public ScrapeLimits {
    requireNonNull(deadline, "deadline is null");
    if (maxBytes < 1 || maxLineBytes < 1) {
      throw new IllegalArgumentException("--max-bytes and --max-line-bytes must be >= 1");
    }
    if (deadline.isNegative() || deadline.isZero()) {
      throw new IllegalArgumentException("--interval must be > 0");
    }
  }
}
