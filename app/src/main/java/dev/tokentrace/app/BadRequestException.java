package dev.tokentrace.app;

import java.util.List;

/**
 * A request a use case cannot run as asked (a file argument that matches nothing, options that
 * contradict each other): every problem, each in one line, for the caller to print in full (the
 * command line exits 2; docs/design.md#bad-input).
 */
public class BadRequestException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final List<String> problems;

  public BadRequestException(List<String> problems) {
    super(String.join("; ", problems));
    this.problems = List.copyOf(problems);
  }

  public BadRequestException(String problem) {
    this(List.of(problem));
  }

  /** Each problem, as one line. */
  public List<String> problems() {
    return problems;
  }
}
