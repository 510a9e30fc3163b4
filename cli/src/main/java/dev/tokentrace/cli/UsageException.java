package dev.tokentrace.cli;

import dev.tokentrace.app.BadRequestException;
import java.util.List;

/** Bad usage found after picocli's own checks (files, combinations); printed in full, exit 2. */
final class UsageException extends BadRequestException {
  private static final long serialVersionUID = 1L;

  UsageException(List<String> problems) {
    super(problems);
  }

  UsageException(String problem) {
    this(List.of(problem));
  }
}
