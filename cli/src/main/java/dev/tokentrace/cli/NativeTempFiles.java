package dev.tokentrace.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The native libraries the DuckDB driver and lz4-java unpack into the temporary directory when they
 * are first used (about 70 MB per process) are deleted by {@link java.io.File#deleteOnExit()},
 * which only runs when the JVM exits normally. A signalled stop ends with {@link Runtime#halt} (the
 * command's own exit code, see {@link ShutdownHook}), which skips it: every restart of a service
 * left them behind. This removes them by hand: a library this process has mapped is found in {@code
 * /proc/self/maps}, and on Linux unlinking a mapped file is safe (the mapping stays until the
 * process ends). Elsewhere there is no such list and nothing is done.
 */
final class NativeTempFiles {
  private static final Path MAPS = Path.of("/proc/self/maps");

  private NativeTempFiles() {}

  /** Deletes the shared libraries in the temporary directory mapped by this process. */
  static List<Path> deleteMapped() {
    List<Path> deleted = new ArrayList<>();
    Path temp = Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath().normalize();
    List<String> lines;
    try {
      lines = Files.readAllLines(MAPS);
    } catch (IOException | RuntimeException e) {
      return deleted; // not Linux: deleteOnExit is all there is
    }
    for (Path library : mappedLibraries(lines, temp)) {
      try {
        if (Files.deleteIfExists(library)) {
          deleted.add(library);
        }
        // lz4-java marks its copy in use with '<library>.lck' (deleteOnExit as well)
        Path lock = library.resolveSibling(library.getFileName() + ".lck");
        if (Files.deleteIfExists(lock)) {
          deleted.add(lock);
        }
      } catch (IOException e) {
        // Someone else's file, or gone meanwhile: nothing of ours to clean.
      }
    }
    return deleted;
  }

  /** The {@code .so} files directly in {@code temp} that the maps lines name. */
  static List<Path> mappedLibraries(List<String> maps, Path temp) {
    List<Path> libraries = new ArrayList<>();
    for (String line : maps) {
      int slash = line.indexOf('/');
      if (slash < 0) {
        continue;
      }
      String name = line.substring(slash).replace(" (deleted)", "");
      Path file = Path.of(name);
      String fileName = String.valueOf(file.getFileName());
      boolean library = fileName.endsWith(".so") || fileName.contains(".so.");
      if (library && temp.equals(file.getParent()) && !libraries.contains(file)) {
        libraries.add(file);
      }
    }
    return libraries;
  }
}
