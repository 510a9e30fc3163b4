package dev.tokentrace.ingest.kafka;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.kafka.clients.admin.Admin;

/**
 * Waits for a Kafka cluster that does not answer yet, for a long-running command that must start in
 * any order (docs/live.md#start-order): each attempt creates the topics (what opening a sink does
 * first) within a short deadline; a failure is said once and the attempt retried with a backoff (1
 * s doubling to 10 s); a configuration error ends the wait at once, since no retry can fix it.
 * {@link #stop()} (SIGTERM) ends the wait within one attempt (at most {@link #ATTEMPT}).
 * Thread-safe.
 */
public final class KafkaWait {
  /** Longest single attempt: a stop request is seen between attempts. */
  public static final Duration ATTEMPT = Duration.ofSeconds(3);

  private static final Duration FIRST_PAUSE = Duration.ofSeconds(1);
  private static final Duration LONGEST_PAUSE = Duration.ofSeconds(10);
  private static final Duration ADMIN_CLOSE = Duration.ofSeconds(1);

  private final KafkaSettings kafka;
  private final Duration attempt;
  private final CountDownLatch stopped = new CountDownLatch(1);

  /**
   * @param attempt deadline of one attempt; capped at {@link #ATTEMPT}
   */
  public KafkaWait(KafkaSettings kafka, Duration attempt) {
    this.kafka = requireNonNull(kafka, "kafka is null");
    requireNonNull(attempt, "attempt is null");
    this.attempt = attempt.compareTo(ATTEMPT) < 0 ? attempt : ATTEMPT;
  }

  /** Ends {@link #untilReachable} at its next check. */
  public void stop() {
    stopped.countDown();
  }

  /** True once {@link #stop()} was called. */
  public boolean stopRequested() {
    return stopped.getCount() == 0;
  }

  /**
   * Returns true once the cluster answered (its topics exist), false when stopped first; {@code
   * say} gets one line when the first attempt fails and one when the cluster answers after that.
   *
   * @throws IllegalArgumentException for a Kafka configuration error (exit 2)
   */
  public boolean untilReachable(Consumer<String> say) {
    requireNonNull(say, "say is null");
    long started = System.nanoTime();
    Duration pause = FIRST_PAUSE;
    boolean waited = false;
    while (!stopRequested()) {
      try {
        Admin admin = Admin.create(kafka.adminProperties());
        try {
          kafka.topics().ensureExist(admin, kafka.partitions(), attempt);
        } finally {
          // bounded: a plain close waits for the calls an unreachable cluster never answers
          admin.close(ADMIN_CLOSE);
        }
        if (waited) {
          say.accept(
              "kafka at "
                  + kafka.bootstrapServers()
                  + " answered after "
                  + Duration.ofNanos(System.nanoTime() - started).toSeconds()
                  + " s");
        }
        return true;
      } catch (RuntimeException e) {
        IllegalArgumentException config = KafkaProblems.configError(e, kafka.adminProperties());
        if (config != null) {
          throw config;
        }
        if (!waited) {
          say.accept(
              "waiting for kafka at "
                  + kafka.bootstrapServers()
                  + " ("
                  + describe(e)
                  + "); retrying every "
                  + FIRST_PAUSE.toSeconds()
                  + " to "
                  + LONGEST_PAUSE.toSeconds()
                  + " s until it answers; SIGTERM or Ctrl-C stops");
          waited = true;
        }
      }
      try {
        if (stopped.await(pause.toMillis(), TimeUnit.MILLISECONDS)) {
          return false;
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
      pause =
          pause.multipliedBy(2).compareTo(LONGEST_PAUSE) < 0
              ? pause.multipliedBy(2)
              : LONGEST_PAUSE;
    }
    return false;
  }

  private static String describe(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null) {
      root = root.getCause();
    }
    String message =
        root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    return message.lines().findFirst().orElse(message);
  }
}
