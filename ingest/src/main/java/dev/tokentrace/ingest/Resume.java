package dev.tokentrace.ingest;

/**
 * Where a batch {@code ingest} picks up a file that an interrupted run loaded in part: the first
 * {@code events} events and {@code rejects} rejections the file yields are stored already and are
 * not shipped again. Exact because a batch run sends each file's events to one partition and its
 * rejections to one partition (docs/follow.md#batch-resume): what a sink stored of a file is the
 * first records of each kind, in the order the parser made them, and parsing is deterministic.
 */
public record Resume(long events, long rejects) {
  /** Nothing stored: the file is shipped whole. */
  public static final Resume NONE = new Resume(0, 0);

  public Resume {
    if (events < 0 || rejects < 0) {
      throw new IllegalArgumentException(
          "events and rejects must be >= 0: " + events + ", " + rejects);
    }
  }

  /** No record is stored yet. */
  public boolean none() {
    return events == 0 && rejects == 0;
  }
}
