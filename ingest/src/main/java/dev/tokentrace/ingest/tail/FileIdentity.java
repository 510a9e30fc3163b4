package dev.tokentrace.ingest.tail;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Which file a path points to, independent of its name: the file system's file key (device and
 * inode on Unix), so a log renamed by rotation is still recognized, and a new file created under
 * the old name is not mistaken for it. Where the file system has no file key, the creation time
 * stands in (weaker: {@link HeadPrint} then also tells files apart). Immutable.
 */
public record FileIdentity(String key) {
  public FileIdentity {
    requireNonNull(key, "key is null");
  }

  /**
   * The identity of the regular file at {@code path} (symbolic links followed).
   *
   * @throws IOException when it cannot be read; {@link NotRegularFileException} for a directory
   */
  public static FileIdentity of(Path path) throws IOException {
    return of(path, Files.readAttributes(path, BasicFileAttributes.class));
  }

  static FileIdentity of(Path path, BasicFileAttributes attributes) throws IOException {
    if (!attributes.isRegularFile()) {
      throw new NotRegularFileException(attributes.isDirectory());
    }
    Object fileKey = attributes.fileKey();
    return new FileIdentity(
        fileKey != null ? fileKey.toString() : "created:" + attributes.creationTime().toMillis());
  }

  @Override
  public String toString() {
    return key;
  }

  /** A path that exists but is no regular file: {@code is a directory} or {@code not a file}. */
  public static final class NotRegularFileException extends IOException {
    private static final long serialVersionUID = 1L;

    NotRegularFileException(boolean directory) {
      super(directory ? "is a directory, not a file" : "not a regular file");
    }
  }
}
