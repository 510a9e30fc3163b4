package dev.tokentrace.ingest.kafka;

import java.util.Optional;
import org.apache.kafka.common.utils.internals.Exit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps Kafka from ending the process while an embedded broker runs. A fatal fault in an in-JVM
 * broker goes through Kafka's {@code ProcessTerminatingFaultHandler}, which calls {@code
 * Exit.halt(1)} (docs/design.md#embedded-broker); {@code Exit.exit} is used the same way on some
 * startup paths. Both are process-wide hooks, so they are replaced when the first embedded broker
 * starts and restored when the last one stops. The class moved in Kafka 4.4 ({@code
 * org.apache.kafka.common.utils.internals.Exit}; {@code org.apache.kafka.common.utils.Exit}
 * before).
 *
 * <p>Thread-safe (all state is guarded by the class monitor).
 */
final class FatalFaults {
  private static final Logger log = LoggerFactory.getLogger(FatalFaults.class);

  private static int users;
  private static @Nullable String first;

  private FatalFaults() {}

  static synchronized void acquire() {
    if (users++ == 0) {
      first = null;
      Exit.setHaltProcedure((status, message) -> record("halt", status, message));
      Exit.setExitProcedure((status, message) -> record("exit", status, message));
    }
  }

  static synchronized void release() {
    if (users > 0 && --users == 0) {
      Exit.resetHaltProcedure();
      Exit.resetExitProcedure();
    }
  }

  static synchronized Optional<String> first() {
    return Optional.ofNullable(first);
  }

  private static void record(String call, int status, @Nullable String message) {
    String fault =
        "kafka asked to " + call + " the JVM with status " + status + ": " + nonNull(message);
    log.error("embedded kafka broker: fatal fault ({}); the broker is no longer reliable", fault);
    synchronized (FatalFaults.class) {
      if (first == null) {
        first = fault;
      }
    }
  }

  private static String nonNull(@Nullable String message) {
    return message == null ? "(no message)" : message;
  }
}
