package dev.tokentrace.ingest.kafka;

import java.io.FileNotFoundException;
import java.nio.file.NoSuchFileException;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.TimeoutException;
import org.jspecify.annotations.Nullable;

/**
 * Tells a Kafka configuration error (a client that cannot even be created: a missing truststore, a
 * bad value) from an unreachable cluster, and words each in one line: a configuration error names
 * the setting, since retrying cannot fix it; an unreachable cluster names the servers and how long
 * was waited.
 */
public final class KafkaProblems {
  private KafkaProblems() {}

  /**
   * A configuration error in {@code failure}, as an exception whose one-line message names the
   * setting (an {@link IllegalArgumentException}: the CLI's usage error, exit 2); null when {@code
   * failure} is not one.
   *
   * @param properties the client properties in use, to name the setting whose value the error is
   *     about (values are never printed: they may be credentials, except file paths)
   */
  public static @Nullable IllegalArgumentException configError(
      Throwable failure, Map<String, Object> properties) {
    boolean construction = false;
    Throwable config = null;
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      String message = String.valueOf(cause.getMessage());
      if (message.startsWith("Failed to construct kafka")
          || message.startsWith("Failed to create new KafkaAdminClient")) {
        construction = true;
      }
      if (cause instanceof ConfigException
          || cause instanceof NoSuchFileException
          || cause instanceof FileNotFoundException) {
        config = cause;
      }
    }
    if (!construction && config == null) {
      return null;
    }
    Throwable root = failure;
    while (root.getCause() != null) {
      root = root.getCause();
    }
    String setting = settingNamed(failure, properties);
    String reason =
        root instanceof NoSuchFileException ? "no such file: " + root.getMessage() : message(root);
    return new IllegalArgumentException(
        "kafka configuration error"
            + (setting == null ? "" : " in " + setting)
            + ": "
            + reason
            + " (check --kafka-config; no retry can fix this)",
        failure);
  }

  /** One line for a cluster that did not answer within {@code waited}. */
  public static KafkaUnavailableException unreachable(
      String servers, Duration waited, String option, Throwable cause) {
    return unreachable(servers, waited, option, "nothing was shipped since", cause);
  }

  /**
   * One line for a cluster that did not answer within {@code waited}; {@code consequence} says what
   * that means for the data (e.g. {@code nothing was written since}).
   */
  public static KafkaUnavailableException unreachable(
      String servers, Duration waited, String option, String consequence, Throwable cause) {
    return new KafkaUnavailableException(
        "kafka: the cluster at "
            + servers
            + " is unreachable: no answer within "
            + waited.toSeconds()
            + " s ("
            + option
            + "); "
            + consequence,
        cause);
  }

  /** True when {@code failure} is (caused by) Kafka timing out waiting for the cluster. */
  public static boolean timedOut(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof TimeoutException
          || cause instanceof java.util.concurrent.TimeoutException
          || String.valueOf(cause.getMessage()).contains("timed out")) {
        return true;
      }
    }
    return false;
  }

  /**
   * The setting whose value (a path, say) the failure's messages mention, the longest such value
   * winning (a path over {@code SSL}), else one a message names (ConfigException's).
   */
  private static @Nullable String settingNamed(Throwable failure, Map<String, Object> properties) {
    Map<String, Object> sorted = new TreeMap<>(properties);
    String best = null;
    int bestLength = 0;
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      String message = String.valueOf(cause.getMessage());
      for (Map.Entry<String, Object> property : sorted.entrySet()) {
        String value = String.valueOf(property.getValue());
        if (value.length() >= 3 && value.length() > bestLength && message.contains(value)) {
          best = property.getKey();
          bestLength = value.length();
        }
      }
    }
    if (best != null) {
      return best;
    }
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      String message = String.valueOf(cause.getMessage());
      for (String key : sorted.keySet()) {
        if (message.contains(key)) {
          return key;
        }
      }
    }
    return null;
  }

  private static String message(Throwable e) {
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }
}
