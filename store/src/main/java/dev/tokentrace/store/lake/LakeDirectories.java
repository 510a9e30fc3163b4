package dev.tokentrace.store.lake;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * Temporary names and the rename that puts a file in place (docs/storage.md#lake-commit-protocol).
 * Every file is written under {@code _tmp/} first, named after its partition so that the sink that
 * takes the partition over can remove what a crashed writer left, then synced and renamed into
 * place: a reader sees a whole file or none.
 */
final class LakeDirectories {
  static final String TEMP = "_tmp";

  private LakeDirectories() {}

  /**
   * A new temporary path {@code _tmp/<what>.<random>.tmp} ({@code what} starts with the partition).
   */
  static Path temp(Path lake, String what) throws IOException {
    Path dir = lake.resolve(TEMP);
    Files.createDirectories(dir);
    return dir.resolve(what + "." + UUID.randomUUID() + ".tmp");
  }

  /**
   * The failure to write {@code file} as one clear line: a full file system says "no space left on
   * device" and names the file (DuckDB's COPY and Java's write say so in messages of their own,
   * Java's without the path); anything else keeps its message, after the file's name
   * (docs/storage.md#lake-faults-and-recovery).
   */
  static IOException writeFailed(Path file, Exception e) {
    String message = String.valueOf(e.getMessage());
    if (message.contains("No space left on device") || message.contains("\"errno\":\"28\"")) {
      IOException full =
          new IOException(
              "no space left on device writing "
                  + file
                  + ": nothing of this flush is committed; free space and start the sink again (it"
                  + " resumes after the last commit)");
      full.addSuppressed(e); // --verbose shows it; the one-line error does not repeat DuckDB's
      return full;
    }
    return new IOException("cannot write " + file + ": " + message, e);
  }

  /**
   * Syncs {@code temp} to disk, then renames it to {@code target} atomically (replacing a file of
   * the same name: the same rows, written again after a crash), then syncs the directory.
   */
  static void moveIntoPlace(Path temp, Path target) throws IOException {
    try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE)) {
      channel.force(true);
    }
    Path parent = target.getParent();
    Files.createDirectories(parent);
    Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    syncDirectory(parent);
  }

  /** Best effort: Linux syncs a directory opened for reading; other systems may refuse. */
  private static void syncDirectory(Path dir) {
    try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
      channel.force(true);
    } catch (IOException e) {
      // not every file system syncs directories; the rename itself is atomic either way
    }
  }

  /** The temporary files a writer of {@code partition} left (crashed mid-write). */
  static List<Path> temps(Path lake, LakePartition partition) throws IOException {
    Path dir = lake.resolve(TEMP);
    List<Path> found = new ArrayList<>();
    if (!Files.isDirectory(dir)) {
      return found;
    }
    String prefix = partition + ".";
    try (Stream<Path> entries = Files.list(dir)) {
      entries
          .filter(entry -> entry.getFileName().toString().startsWith(prefix))
          .forEach(found::add);
    }
    return found;
  }
}
