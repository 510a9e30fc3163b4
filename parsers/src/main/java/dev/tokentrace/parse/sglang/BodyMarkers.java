package dev.tokentrace.parse.sglang;

/**
 * Where SGLang message bodies start in lines that lack SGLang's own prefix: at the start (≤
 * v0.2.13, {@code %(message)s} logging configs, 2026-01-03 – 2026-05-05 request lines) or after an
 * embedder's prefix (docs/formats/sglang.md#log-prefix: "match the message body independently of
 * the prefix"). Stateless.
 */
final class BodyMarkers {
  /** Bodies that can follow any prefix. */
  private static final String[] MARKERS = {
    "Decode batch",
    "Prefill batch",
    "Prefil batch",
    RequestLine.RECEIVE,
    RequestLine.FINISH,
    TimeStatsLine.LEGACY,
    TimeStatsLine.CURRENT,
  };

  /** 2026-03-16+: the raw OpenAI request before conversion, followed by its own Receive line. */
  static final String OPENAI_ECHO = "Receive OpenAI:";

  private BodyMarkers() {}

  /** True when an SGLang body starts at {@code start} (including the header-less ≤ v0.1.16 one). */
  static boolean startsWithBody(String line, int start) {
    if (start >= line.length()) {
      return false;
    }
    for (String marker : MARKERS) {
      if (line.startsWith(marker, start)) {
        return true;
      }
    }
    return line.startsWith("#running-req: ", start) || RequestLine.isRequest(line, start);
  }

  /**
   * Lines that are SGLang's (or its uvicorn's) even without a prefix: a body, a JSON record, an
   * uvicorn {@code INFO:} line, the OpenAI echo. They end a traceback instead of continuing it.
   */
  static boolean isKnownUnprefixed(String body) {
    return startsWithBody(body, 0)
        || body.startsWith("{")
        || body.startsWith("INFO:")
        || body.startsWith(OPENAI_ECHO);
  }

  /**
   * The earliest body marker after a space or {@code ]} (an embedder's prefix such as {@code
   * 2025-12-04 20:35:53 INFO 151972 [scheduler_metrics_mixin.py:287] Decode batch. ...}), or -1.
   * Quoted code in a traceback ({@code f"Decode batch. "}) is not preceded by a space or {@code ]}.
   */
  static int embeddedBodyStart(String line) {
    int best = -1;
    for (String marker : MARKERS) {
      for (int at = line.indexOf(marker, 1); at > 0; at = line.indexOf(marker, at + 1)) {
        char before = line.charAt(at - 1);
        if (before == ' ' || before == ']') {
          best = best < 0 ? at : Math.min(best, at);
          break;
        }
      }
    }
    return best;
  }
}
