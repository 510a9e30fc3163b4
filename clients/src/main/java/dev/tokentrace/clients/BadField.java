package dev.tokentrace.clients;

/**
 * A row value that cannot be used; its message is the rejection reason. Thrown and caught inside
 * one reader only (never crosses the package), without a stack trace, since bad rows are ordinary.
 */
final class BadField extends Exception {
  private static final long serialVersionUID = 1L;

  BadField(String reason) {
    super(reason, null, false, false);
  }
}
