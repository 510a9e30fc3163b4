package dev.tokentrace.app;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.correlate.client.ClientLoadResult;
import dev.tokentrace.correlate.client.ClientLoadSettings;
import dev.tokentrace.correlate.client.ClientTimingLoader;
import dev.tokentrace.store.Database;
import java.time.Clock;

/**
 * The client-load use case over one open store: a benchmark client's timing files into {@code
 * client_timing} as one run, recorded in {@code runs} and {@code run_files} (a file loaded already
 * is skipped and says so; docs/design.md#application-layer).
 */
public final class ClientLoads {
  private final ClientTimingLoader loader;

  public ClientLoads(Database database, Clock clock) {
    this.loader =
        new ClientTimingLoader(
            requireNonNull(database, "database is null"), requireNonNull(clock, "clock is null"));
  }

  /** With the system clock. */
  public static ClientLoads of(Database database) {
    return new ClientLoads(database, Clock.systemUTC());
  }

  /**
   * Loads one run's files.
   *
   * @param replace load files an earlier run loaded again, removing that run's rows of them first
   */
  public ClientLoadResult load(ClientLoadSettings settings, boolean replace) {
    return loader.load(settings, replace);
  }
}
