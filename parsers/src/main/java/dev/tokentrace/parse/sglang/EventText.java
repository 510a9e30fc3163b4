package dev.tokentrace.parse.sglang;

/**
 * Text that leaves the parser in events and rejections: capped, and with request objects (which
 * hold prompts and outputs, user data that never enters an event or a reject,
 * docs/design.md#bad-input) cut off. Stateless.
 */
final class EventText {
  /** Markers after which a line carries a request object or its text. */
  private static final String[] REQUEST_MARKERS = {
    "obj=", "out=", "] in=", "\"obj\"", "\"out\"", "\"request_parameters\"", "ReqInput(", "'text'"
  };

  private static final String OMITTED = "…(request object omitted)";

  private EventText() {}

  static String cap(String text, int max) {
    return text.length() <= max ? text : text.substring(0, max - 1) + "…";
  }

  /** {@code text} without anything from the first request-object marker on. */
  static String withoutRequest(String text) {
    int cut = requestStart(text);
    return cut < 0 ? text : text.substring(0, cut) + OMITTED;
  }

  /**
   * The excerpt for rejecting a line that carries (or may carry) a request: the line up to the
   * request object; a line with no recognizable marker keeps only its first {@code keep} chars.
   */
  static String requestExcerpt(String line, int keep) {
    int cut = requestStart(line);
    if (cut < 0) {
      cut = Math.min(line.length(), keep);
    }
    return cut >= line.length() ? line : line.substring(0, cut) + OMITTED;
  }

  private static int requestStart(String text) {
    if (text.startsWith("in=")) {
      return 3;
    }
    int best = -1;
    int bestEnd = -1;
    for (String marker : REQUEST_MARKERS) {
      int at = text.indexOf(marker);
      if (at >= 0 && (best < 0 || at < best)) {
        best = at;
        bestEnd = at + marker.length();
      }
    }
    return bestEnd;
  }
}
