package dev.tokentrace.ingest.tail;

/**
 * What became of the lines of one or more sources. {@code events} counts events, not lines: one
 * line may hold several (an OTLP export line) and several lines one (a folded traceback).
 */
public record ParseCounts(long lines, long events, long ignored, long rejected) {
  public static final ParseCounts ZERO = new ParseCounts(0, 0, 0, 0);

  public ParseCounts {
    if (lines < 0 || events < 0 || ignored < 0 || rejected < 0) {
      throw new IllegalArgumentException(
          "counts must be >= 0: " + lines + "/" + events + "/" + ignored + "/" + rejected);
    }
  }

  public ParseCounts plus(ParseCounts other) {
    return new ParseCounts(
        lines + other.lines,
        events + other.events,
        ignored + other.ignored,
        rejected + other.rejected);
  }

  /** The run summary (docs/design.md#bad-input): {@code parsed=N ignored=N rejected=N}. */
  public String summary() {
    return "parsed=" + events + " ignored=" + ignored + " rejected=" + rejected;
  }
}
