package dev.tokentrace.clients;

import static java.util.Objects.requireNonNull;

/**
 * Whether a file looks like one client format, and if not, why not (one line of the error that
 * lists every format tried).
 */
public record Recognition(boolean matches, String reason) {
  private static final Recognition YES = new Recognition(true, "recognized");

  public Recognition {
    requireNonNull(reason, "reason is null");
  }

  public static Recognition yes() {
    return YES;
  }

  public static Recognition no(String reason) {
    return new Recognition(false, reason);
  }
}
