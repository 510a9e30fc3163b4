package dev.tokentrace.ingest.follow;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.clients.ClientReadSettings;
import java.util.regex.Pattern;

/**
 * How followed client and gateway files become {@code client_timing} rows
 * (docs/follow.md#client-files).
 *
 * @param run the {@code run_id} of every streamed client row ({@value #RUN_DOC})
 * @param read what some readers need and the file does not say (a gateway's own {@code log_format},
 *     the request id column)
 */
public record ClientFollowSettings(String run, ClientReadSettings read) {
  private static final Pattern RUN_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:-]{0,99}");

  /** The run of streamed client rows when none is given. */
  public static final String DEFAULT_RUN = "live";

  public static final String RUN_DOC =
      "run_id of the client and gateway rows of the files this process follows (client files"
          + " detected by content among the FILEs); default: "
          + DEFAULT_RUN
          + ". Give each benchmark run its own, and the same as 'clients --run-id' would";

  public static final ClientFollowSettings DEFAULTS =
      new ClientFollowSettings(DEFAULT_RUN, ClientReadSettings.DEFAULTS);

  public ClientFollowSettings {
    requireNonNull(run, "run is null");
    requireNonNull(read, "read is null");
    if (!RUN_ID.matcher(run).matches()) {
      throw new IllegalArgumentException(
          "--run must be 1-100 of letters, digits, '.', '_', ':', '-': '" + run + "'");
    }
  }
}
