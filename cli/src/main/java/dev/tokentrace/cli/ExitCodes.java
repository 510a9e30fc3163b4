package dev.tokentrace.cli;

/** Process exit codes, listed in the README (docs/design.md#cli). */
final class ExitCodes {
  static final int OK = 0;

  /** A broker, database or file system failed. */
  static final int INFRASTRUCTURE = 1;

  /** Bad usage or configuration; every problem is printed. */
  static final int USAGE = 2;

  /**
   * More input was rejected than {@code --max-reject-ratio} allows; the summary is printed first.
   */
  static final int REJECTS = 3;

  private ExitCodes() {}
}
