package dev.tokentrace.cli;

import java.nio.file.Path;
import java.util.List;

/** Checks input paths before any work starts ({@link dev.tokentrace.app.InputPaths}). */
final class InputPaths {
  private InputPaths() {}

  /**
   * @throws dev.tokentrace.app.BadRequestException listing every path that is missing, a directory
   *     or unreadable
   */
  static void requireReadable(List<Path> paths) {
    dev.tokentrace.app.InputPaths.requireReadable(paths);
  }
}
