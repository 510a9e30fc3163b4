package dev.tokentrace.parse.sglang;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Strips what transports add around an SGLang line before the engine's own text: a byte-order mark,
 * a trailing CR (CRLF files), terminal redraw segments ({@code \r} inside a line, tqdm), ANSI
 * colour codes, MPI rank tags, docker/kubectl timestamps and prefixes, docker-compose service
 * prefixes and journald prefixes. Stateless and thread-safe.
 *
 * <p>Allocation-free for a plain SGLang line: every check is a character test before any regex, and
 * a substring is made only when something is actually stripped.
 */
final class TransportPrefix {
  /** {@code mpirun --tag-output}: {@code [1,0]<stdout>:}. */
  private static final Pattern MPI = Pattern.compile("^\\[\\d+,\\d+\\]<std(?:out|err)>:");

  /** {@code kubectl logs --prefix}: {@code [pod/name/container] }. */
  private static final Pattern KUBECTL = Pattern.compile("^\\[pod/[^\\]\\s]+\\] ");

  /**
   * journald {@code short-iso} output, which starts like a docker timestamp and must be tried
   * first: {@code 2026-01-02T15:04:05+0000 host sglang[123]: }.
   */
  private static final Pattern JOURNALD_ISO =
      Pattern.compile(
          "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(?:\\.\\d+)?(?:Z|[+-]\\d{2}:?\\d{2})"
              + " [^\\s\\[\\]]+ [^\\s:\\[]+(?:\\[\\d+\\])?: ");

  /** {@code docker logs -t}, {@code kubectl logs --timestamps}: RFC 3339 with a zone. */
  private static final Pattern DOCKER_TIMESTAMP =
      Pattern.compile(
          "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(?:\\.\\d+)?(?:Z|[+-]\\d{2}:?\\d{2}) ");

  /** journald default {@code short} output: {@code Jan 02 15:04:05 host sglang[123]: }. */
  private static final Pattern JOURNALD =
      Pattern.compile(
          "^[A-Z][a-z]{2} [ \\d]\\d \\d{2}:\\d{2}:\\d{2} [^\\s\\[\\]]+ [^\\s:\\[]+(?:\\[\\d+\\])?: ");

  /** docker-compose: {@code sglang-1 | }. */
  private static final Pattern COMPOSE = Pattern.compile("^[A-Za-z0-9][\\w.-]*\\s+\\| ");

  private static final Pattern ANSI = Pattern.compile("\u001B\\[[0-9;?]*[A-Za-z]");

  /** docker-compose pads service names to the longest one; real names are short. */
  private static final int MAX_SERVICE_NAME = 80;

  /** Transport prefixes can stack (journald around mpirun); more than this is not a prefix. */
  private static final int MAX_PREFIXES = 4;

  private TransportPrefix() {}

  /** The engine's own text of {@code line}; the same instance when nothing was stripped. */
  static String strip(String line) {
    // a byte-order mark survives decoding on a file's first line
    String text = !line.isEmpty() && line.charAt(0) == '\uFEFF' ? line.substring(1) : line;
    // indexOf is a vectorized intrinsic; lastIndexOf is not, and this runs on every line
    if (text.indexOf('\r') >= 0) {
      text = withoutCarriageReturns(text, text.lastIndexOf('\r'));
    }
    if (text.indexOf('\u001B') >= 0) {
      text = ANSI.matcher(text).replaceAll("");
    }
    for (int i = 0; i < MAX_PREFIXES; i++) {
      int end = prefixEnd(text);
      if (end <= 0) {
        break;
      }
      text = text.substring(end);
    }
    return text;
  }

  /** CRLF ends a line; a CR inside it is a terminal redraw, so what is shown is the last part. */
  private static String withoutCarriageReturns(String text, int lastCr) {
    if (lastCr == text.length() - 1) {
      String body = text.substring(0, lastCr);
      int inner = body.lastIndexOf('\r');
      return inner < 0 ? body : body.substring(inner + 1);
    }
    return text.substring(lastCr + 1);
  }

  /** Length of one transport prefix at the start of {@code text}, or 0. */
  private static int prefixEnd(String text) {
    if (text.length() < 3) {
      return 0;
    }
    char first = text.charAt(0);
    if (first == '[') {
      char second = text.charAt(1);
      if (second >= '0' && second <= '9') {
        return isMpiCandidate(text) ? end(MPI.matcher(text)) : 0;
      }
      return second == 'p' ? end(KUBECTL.matcher(text)) : 0;
    }
    if (first == '(' || first == '{' || first == ' ') {
      return 0;
    }
    if (isDigit(first) && text.length() > 20 && text.charAt(4) == '-' && text.charAt(10) == 'T') {
      int journald = end(JOURNALD_ISO.matcher(text));
      return journald > 0 ? journald : end(DOCKER_TIMESTAMP.matcher(text));
    }
    if (first >= 'A' && first <= 'Z' && text.length() > 16 && text.charAt(3) == ' ') {
      int journald = end(JOURNALD.matcher(text));
      if (journald > 0) {
        return journald;
      }
    }
    return hasBarWithin(text, MAX_SERVICE_NAME) ? end(COMPOSE.matcher(text)) : 0;
  }

  /** {@code [1,0]<...}: digits then a comma; SGLang's own {@code [2026-...} fails fast here. */
  private static boolean isMpiCandidate(String text) {
    int i = 1;
    while (i < text.length() && isDigit(text.charAt(i))) {
      i++;
    }
    return i < text.length() && text.charAt(i) == ',';
  }

  /** A compose prefix {@code name | } within the first {@code limit} characters. */
  private static boolean hasBarWithin(String text, int limit) {
    int stop = Math.min(text.length() - 1, limit);
    for (int i = 1; i < stop; i++) {
      if (text.charAt(i) == '|' && text.charAt(i + 1) == ' ') {
        return true;
      }
    }
    return false;
  }

  private static int end(Matcher matcher) {
    return matcher.lookingAt() ? matcher.end() : 0;
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }
}
