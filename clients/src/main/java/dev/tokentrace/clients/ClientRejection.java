package dev.tokentrace.clients;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.event.Redaction;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.parse.Rejection;

/**
 * A client-file row (or the whole file) that could not be used, with a short, stable, lower-case
 * reason. Stored in {@code rejects} with engine {@value #ENGINE}, so client and server rejects can
 * be told apart (a NULL engine already means "no server format recognized").
 */
public record ClientRejection(SourcePosition position, String reason, String excerpt) {
  /** The {@code rejects.engine} value and message tag of every client rejection. */
  public static final String ENGINE = "client";

  public ClientRejection {
    requireNonNull(position, "position is null");
    requireNonNull(reason, "reason is null");
    requireNonNull(excerpt, "excerpt is null");
    if (reason.isBlank()) {
      throw new IllegalArgumentException("reason is blank");
    }
    reason = Redaction.apply(reason); // docs/privacy.md#secrets
    excerpt = Rejection.excerptOf(excerpt);
  }

  /** The house message format: {@code path:line: client: reason}. */
  public String message() {
    return position + ": " + ENGINE + ": " + reason;
  }
}
