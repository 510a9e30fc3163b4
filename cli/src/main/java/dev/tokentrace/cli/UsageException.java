package dev.tokentrace.cli;

import java.util.List;

/** Bad usage found after picocli's own checks (files, combinations); printed in full, exit 2. */
final class UsageException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final List<String> problems;

  UsageException(List<String> problems) {
    super(String.join("; ", problems));
    this.problems = List.copyOf(problems);
  }

  UsageException(String problem) {
    this(List.of(problem));
  }

  List<String> problems() {
    return problems;
  }
}
