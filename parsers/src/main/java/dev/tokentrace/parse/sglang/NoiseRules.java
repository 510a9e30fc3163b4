package dev.tokentrace.parse.sglang;

import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Named rules for lines that carry nothing for latency analysis. Every ignored line is ignored by
 * one of these names, never silently. Stateless.
 */
final class NoiseRules {
  static final String UVICORN_ACCESS = "uvicorn: access line";
  static final String UVICORN_LIFECYCLE = "uvicorn: lifecycle line";
  static final String STARTUP = "sglang: startup line";
  static final String OTHER = "sglang: other message";
  static final String BLANK = "blank line";
  static final String TQDM = "tqdm progress bar";
  static final String GLOG = "native glog line";
  static final String NCCL = "nccl line";
  static final String PYTHON_WARNING = "python warnings module line";
  static final String CONTINUATION = "sglang: indented continuation line";
  static final String TRACEBACK_LINE = "sglang: traceback line (folded into notice)";
  static final String REQUEST_CONTINUATION = "sglang: request text continuation";
  static final String TRACEBACK_WITHOUT_CONTEXT = "python traceback before any sglang line";

  /**
   * Startup lines of the scheduler and HTTP processes
   * (docs/formats/sglang.md#other-scheduler-lines); a new {@code server_args=} means a (re)start.
   */
  private static final String[] STARTUP_PREFIXES = {
    "server_args=",
    "Load weight begin",
    "Load weight end",
    "KV Cache is allocated",
    "Memory pool end",
    "Capture cuda graph",
    "max_total_num_tokens=",
    "Init torch distributed",
  };

  /**
   * v0.1.x – now, HTTP process (docs/formats/sglang.md#other-scheduler-lines); marks the end of
   * warm-up.
   */
  static final String READY = "The server is fired up and ready to roll!";

  /**
   * uvicorn access format (docs/formats/sglang.md#uvicorn-lines): {@code 10.0.0.1:5000 - "POST
   * /generate HTTP/1.1" 200 OK}.
   */
  private static final Pattern ACCESS =
      Pattern.compile("^\\S+ - \"[A-Z]+ \\S+ HTTP/[\\d.]+\" \\d{3}");

  /** glog / absl: {@code I0518 12:00:00.123456 12345 file.cc:42] ...}. */
  private static final Pattern GLOG_LINE =
      Pattern.compile("^[IWEF]\\d{4} \\d{2}:\\d{2}:\\d{2}\\.\\d+ ");

  /** Python {@code warnings}: {@code /x/y.py:12: FutureWarning: ...}. */
  private static final Pattern WARNINGS_MODULE = Pattern.compile("^\\S+\\.py:\\d+: \\w*Warning: ");

  private NoiseRules() {}

  /** The rule for a prefixed message that is known noise, or null. */
  static @Nullable String forMessage(String line, int start) {
    if (line.startsWith("INFO:", start)) {
      return uvicornInfo(line, start);
    }
    return isStartup(line, start) ? STARTUP : null;
  }

  /**
   * An uvicorn {@code INFO:} line at {@code start} (docs/formats/sglang.md#uvicorn-lines): an
   * access line or a lifecycle line.
   */
  static String uvicornInfo(String line, int start) {
    return ACCESS.matcher(line).region(skipSpaces(line, start + 5), line.length()).lookingAt()
        ? UVICORN_ACCESS
        : UVICORN_LIFECYCLE;
  }

  static boolean isStartup(String line, int start) {
    for (String prefix : STARTUP_PREFIXES) {
      if (line.startsWith(prefix, start)) {
        return true;
      }
    }
    return false;
  }

  /** The rule for an unprefixed line that is known third-party noise, or null. */
  static @Nullable String forUnprefixed(String line) {
    if (line.isBlank()) {
      return BLANK;
    }
    if (line.contains("%|") || line.contains("it/s]") || line.contains("s/it]")) {
      return TQDM;
    }
    if (GLOG_LINE.matcher(line).lookingAt()) {
      return GLOG;
    }
    if (line.contains("NCCL INFO") || line.contains("NCCL WARN")) {
      return NCCL;
    }
    if (WARNINGS_MODULE.matcher(line).lookingAt() || line.strip().startsWith("warnings.warn(")) {
      return PYTHON_WARNING;
    }
    return null;
  }

  private static int skipSpaces(String line, int from) {
    int p = from;
    while (p < line.length() && line.charAt(p) == ' ') {
      p++;
    }
    return p;
  }
}
