package dev.tokentrace.ingest.follow;

/** Where a file the shipper has no checkpoint for starts, on its first run. */
public enum StartAt {
  /** Ship the file's whole history. */
  BEGINNING,
  /**
   * Ship only what is written from now on (the line count is still taken, so lines number right).
   */
  END;

  public static final String DOC =
      "where files start on the shipper's first run (no checkpoint yet): beginning ships their"
          + " history, end only what is written from now on. Files that appear later (new glob"
          + " matches, a rotation's new file) always start at the beginning";
}
