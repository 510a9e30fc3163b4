package dev.tokentrace.ingest.tail;

/**
 * Where reading a file resumes: the byte offset of the first line not yet shipped and its 1-based
 * number. Offsets of gzip files count decompressed bytes.
 */
public record TailPosition(long offset, long line) {
  public static final TailPosition START = new TailPosition(0, 1);

  public TailPosition {
    if (offset < 0) {
      throw new IllegalArgumentException("offset must be >= 0: " + offset);
    }
    if (line < 1) {
      throw new IllegalArgumentException("line must be >= 1: " + line);
    }
  }
}
