package dev.tokentrace.parse.vllm;

import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Lines without a vLLM record header that are known noise, each with the rule name it is ignored
 * under: uvicorn's access and lifecycle lines (no timestamp, no request ID;
 * docs/formats/vllm.md#uvicorn-lines), tqdm progress bars, Python {@code warnings} output,
 * ASCII-art banners, and the logs of torch's C++ core, NCCL and Gloo that share vLLM's stdout.
 * Tracebacks are handled by the caller, which groups them.
 */
final class RawLines {
  static final String BLANK = "vllm: blank line";
  static final String UVICORN_ACCESS = "uvicorn: access";
  static final String UVICORN_LIFECYCLE = "uvicorn: lifecycle";
  static final String PYTHON_WARNING = "python: warning";
  static final String BANNER = "vllm: banner";

  /** {@code | 2/2 [} in {@code ... 100% Completed | 2/2 [00:01<00:00, 1.2it/s]}. */
  private static final Pattern TQDM = Pattern.compile("\\| *\\d+/\\d+ \\[");

  /** {@code /usr/lib/python3/x.py:12: FutureWarning: ...}, looked for in the first 600 chars. */
  private static final Pattern PYTHON_WARNING_LINE =
      Pattern.compile("^\\S+?:\\d+: [\\w.]*Warning: ");

  private static final int WARNING_WINDOW = 600;

  private RawLines() {}

  /** The rule a raw line is ignored under, or null when none applies. */
  static @Nullable String noiseRule(String body) {
    if (body.isBlank()) {
      return BLANK;
    }
    if (isPythonWarning(body)) {
      return PYTHON_WARNING;
    }
    if (TQDM.matcher(body).find()) {
      return "tqdm: progress bar";
    }
    if (isTorchLog(body)) {
      return "torch: c10 log";
    }
    if (body.contains(" NCCL INFO ") || body.contains(" NCCL WARN ")) {
      return "nccl: log";
    }
    if (body.startsWith("[Gloo] ")) {
      return "gloo: log";
    }
    return null;
  }

  /**
   * ASCII-art logos drawn with box-drawing and block characters (U+2500 to U+259F), such as the
   * logo newer vLLM builds print at startup: the first visible character is one of them.
   */
  static boolean isBanner(String body) {
    for (int at = 0; at < body.length(); at++) {
      char c = body.charAt(at);
      if (c != ' ') {
        return c >= '\u2500' && c <= '\u259F';
      }
    }
    return false;
  }

  static boolean isPythonWarning(String body) {
    return PYTHON_WARNING_LINE
        .matcher(body)
        .region(0, Math.min(body.length(), WARNING_WINDOW))
        .lookingAt();
  }

  /**
   * {@code [W519 10:13:11.123456 ProcessGroupNCCL.cpp:1250] ...} from torch's c10 logging: severity
   * letter and month-day with the month not zero-padded.
   */
  private static boolean isTorchLog(String body) {
    if (body.length() < 8 || body.charAt(0) != '[' || "WIEF".indexOf(body.charAt(1)) < 0) {
      return false;
    }
    int digits = Ascii.digitsEnd(body, 2);
    return (digits == 5 || digits == 6) && body.charAt(digits) == ' ';
  }

  /** The level of a uvicorn line ({@code INFO: ...}, {@code ERROR: ...}), or null. */
  static @Nullable Level uvicornLevel(String body) {
    int colon = body.indexOf(':');
    if (colon < 4 || colon > 8 || colon + 1 >= body.length() || body.charAt(colon + 1) != ' ') {
      return null;
    }
    for (Level level : Level.values()) {
      if (level.name().length() == colon && body.startsWith(level.name())) {
        return level;
      }
    }
    return null;
  }

  /** The text after uvicorn's padded level prefix. */
  static String uvicornMessage(String body) {
    int at = body.indexOf(':') + 1;
    while (at < body.length() && body.charAt(at) == ' ') {
      at++;
    }
    return body.substring(at);
  }

  /** {@code 10.1.2.3:51408 - "POST /v1/chat/completions HTTP/1.1" 200 OK}. */
  static boolean isAccess(String message) {
    int dash = message.indexOf(" - \"");
    if (dash <= 0) {
      return false;
    }
    int close = message.indexOf("\" ", dash + 4);
    if (close < 0 || message.lastIndexOf(" HTTP/", close) < dash) {
      return false;
    }
    int status = close + 2;
    return Ascii.digitsEnd(message, status) == status + 3
        && (status + 3 == message.length() || message.charAt(status + 3) == ' ');
  }

  /** The text after torch's {@code [rank0]:} prefix, or the body itself. */
  static String withoutRank(String body) {
    if (!body.startsWith("[rank")) {
      return body;
    }
    int digits = Ascii.digitsEnd(body, 5);
    return digits > 5 && body.startsWith("]:", digits) ? body.substring(digits + 2) : body;
  }
}
