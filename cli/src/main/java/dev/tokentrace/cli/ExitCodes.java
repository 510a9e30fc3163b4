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

  /**
   * A batch loaded, but some of its files not (empty, no known format, unreadable) or not whole (a
   * gzip stream cut off); each is reported with path and line.
   */
  static final int PARTIAL = 4;

  /**
   * The exit code of a batch: {@code code} (the reject verdict) unless it is OK and files had
   * problems, which are printed first.
   */
  static int batch(
      int code, java.util.List<String> fileProblems, String command, java.io.PrintWriter err) {
    if (fileProblems.isEmpty()) {
      return code;
    }
    err.println(
        command
            + ": "
            + fileProblems.size()
            + " file(s) not loaded, or not whole (listed above); the other files were loaded");
    err.flush();
    return code == OK ? PARTIAL : code;
  }

  private ExitCodes() {}
}
