package dev.tokentrace.event;

import static java.util.Objects.requireNonNull;

/**
 * Where an event or a rejection came from: the file as given by the user, the 1-based line number
 * and the byte offset of the line's first byte.
 */
public record SourcePosition(String path, long line, long offset) {
  public SourcePosition {
    requireNonNull(path, "path is null");
    if (line < 1) {
      throw new IllegalArgumentException("line must be >= 1: " + line);
    }
    if (offset < 0) {
      throw new IllegalArgumentException("offset must be >= 0: " + offset);
    }
  }

  /** {@code path:line}, the prefix of every message about this position. */
  @Override
  public String toString() {
    return path + ":" + line;
  }
}
