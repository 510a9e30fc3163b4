package dev.tokentrace.parse.vllm;

/**
 * The process-name prefix vLLM writes before every physical line of a child process ({@code
 * (APIServer pid=3646) }, {@code (VllmWorker rank=0 pid=77) }, {@code (Worker_PP0_TP1 pid=9) }), V0
 * multiproc workers since a657bfc48 (2024-05-01) and every V1 process
 * (docs/formats/vllm.md#process-prefix), and Ray's {@code (RayWorkerWrapper pid=812, ip=10.1.2.3)
 * }. Colour codes are already removed.
 */
final class ProcessPrefix {
  /** Longest prefix looked at, so that a line starting with "(" costs little. */
  private static final int MAX_LENGTH = 160;

  private ProcessPrefix() {}

  /**
   * The index just after the prefix (and its trailing space) starting at {@code from}, or -1 when
   * there is none. A prefix followed by the end of the line (an empty print) also counts.
   */
  static int end(String line, int from) {
    if (from >= line.length() || line.charAt(from) != '(') {
      return -1;
    }
    int limit = Math.min(line.length(), from + MAX_LENGTH);
    int close = -1;
    for (int at = from + 1; at < limit; at++) {
      char c = line.charAt(at);
      if (c == ')') {
        close = at;
        break;
      }
      if (c == '(') {
        return -1;
      }
    }
    if (close < 0 || !hasPid(line, from + 1, close)) {
      return -1;
    }
    if (close + 1 == line.length()) {
      return close + 1;
    }
    return line.charAt(close + 1) == ' ' ? close + 2 : -1;
  }

  /** The index after every stacked prefix starting at {@code from} (Ray inside vLLM stacks two). */
  static int skipAll(String line, int from) {
    int at = from;
    for (int count = 0; count < 3; count++) {
      int end = end(line, at);
      if (end < 0) {
        break;
      }
      at = end;
    }
    return at;
  }

  /** {@code [name ]pid=<digits>[, more]} between the parentheses. */
  private static boolean hasPid(String line, int start, int close) {
    int pid = line.indexOf("pid=", start);
    if (pid < 0 || pid >= close || (pid > start && line.charAt(pid - 1) != ' ')) {
      return false;
    }
    int digits = pid + 4;
    int at = digits;
    while (at < close && Ascii.isDigit(line.charAt(at))) {
      at++;
    }
    return at > digits && (at == close || line.charAt(at) == ',');
  }
}
