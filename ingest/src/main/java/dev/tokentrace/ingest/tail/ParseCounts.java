package dev.tokentrace.ingest.tail;

/**
 * What became of the lines of one or more sources. Every physical line is in exactly one bucket
 * (docs/design.md#bad-input): {@code parsed} (at least one event came from it), {@code rejected} (a
 * rejection and no event) or {@code ignored} (the rest: named ignore rules, continuation lines
 * folded into another line's event), so {@code lines = parsed + ignored + rejected}. {@code events}
 * counts events, not lines: one line may hold several (an OTLP export line, a startup line with
 * many settings).
 */
public record ParseCounts(long lines, long parsed, long ignored, long rejected, long events) {
  public static final ParseCounts ZERO = new ParseCounts(0, 0, 0, 0, 0);

  public ParseCounts {
    if (lines < 0 || parsed < 0 || ignored < 0 || rejected < 0 || events < 0) {
      throw new IllegalArgumentException(
          "counts must be >= 0: "
              + lines
              + "/"
              + parsed
              + "/"
              + ignored
              + "/"
              + rejected
              + "/"
              + events);
    }
  }

  public ParseCounts plus(ParseCounts other) {
    return new ParseCounts(
        lines + other.lines,
        parsed + other.parsed,
        ignored + other.ignored,
        rejected + other.rejected,
        events + other.events);
  }

  /**
   * The run summary (docs/design.md#bad-input): {@code parsed=N ignored=N rejected=N events=N}, the
   * first three in lines.
   */
  public String summary() {
    return "parsed="
        + parsed
        + " ignored="
        + ignored
        + " rejected="
        + rejected
        + " events="
        + events;
  }
}
