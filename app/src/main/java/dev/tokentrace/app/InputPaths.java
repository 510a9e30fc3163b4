package dev.tokentrace.app;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Checks input paths before any work starts, so that every missing file is reported at once. */
public final class InputPaths {
  private InputPaths() {}

  /**
   * @throws BadRequestException listing every path that is missing, a directory or unreadable
   */
  public static void requireReadable(List<Path> paths) {
    List<String> problems = new ArrayList<>();
    for (Path path : paths) {
      if (!Files.exists(path)) {
        problems.add(path + ": no such file");
      } else if (Files.isDirectory(path)) {
        problems.add(path + ": is a directory, not a file");
      } else if (!Files.isReadable(path)) {
        problems.add(path + ": not readable (permission denied)");
      }
    }
    if (!problems.isEmpty()) {
      throw new BadRequestException(problems);
    }
  }
}
