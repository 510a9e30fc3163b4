package dev.tokentrace.cli;

import dev.tokentrace.app.ExitStatus;

/**
 * Process exit codes, listed in the README (docs/design.md#cli): the application layer's {@link
 * ExitStatus}, which its use cases return.
 */
final class ExitCodes {
  static final int OK = ExitStatus.OK;

  /** A broker, database or file system failed. */
  static final int INFRASTRUCTURE = ExitStatus.INFRASTRUCTURE;

  /** Bad usage or configuration; every problem is printed. */
  static final int USAGE = ExitStatus.USAGE;

  /** More input was rejected than {@code --max-reject-ratio} allows. */
  static final int REJECTS = ExitStatus.REJECTS;

  /** A batch loaded, but some of its files not, or not whole. */
  static final int PARTIAL = ExitStatus.PARTIAL;

  /** {@link ExitStatus#batch}. */
  static int batch(
      int code, java.util.List<String> fileProblems, String command, java.io.PrintWriter err) {
    return ExitStatus.batch(code, fileProblems, command, err);
  }

  private ExitCodes() {}
}
