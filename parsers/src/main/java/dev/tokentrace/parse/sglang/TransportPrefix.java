package dev.tokentrace.parse.sglang;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Strips what the SGLang process's own launch adds around its text: a byte-order mark, a trailing
 * CR (CRLF files), terminal redraw segments ({@code \r} inside a line, tqdm), ANSI colour codes and
 * MPI rank tags. What log collectors add (Docker, CRI, kubectl, journald, compose) is removed
 * before this parser by the collector layer (docs/formats/collectors.md). Stateless and
 * thread-safe.
 *
 * <p>Allocation-free for a plain SGLang line: every check is a character test before any regex, and
 * a substring is made only when something is actually stripped.
 */
final class TransportPrefix {
  /** {@code mpirun --tag-output}: {@code [1,0]<stdout>:}. */
  private static final Pattern MPI = Pattern.compile("^\\[\\d+,\\d+\\]<std(?:out|err)>:");

  private static final Pattern ANSI = Pattern.compile("\u001B\\[[0-9;?]*[A-Za-z]");

  /** Launcher prefixes can stack; more than this is not a prefix. */
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

  /** Length of one launcher prefix at the start of {@code text}, or 0. */
  private static int prefixEnd(String text) {
    if (text.length() < 3 || text.charAt(0) != '[' || !isDigit(text.charAt(1))) {
      return 0;
    }
    return isMpiCandidate(text) ? end(MPI.matcher(text)) : 0;
  }

  /** {@code [1,0]<...}: digits then a comma; SGLang's own {@code [2026-...} fails fast here. */
  private static boolean isMpiCandidate(String text) {
    int i = 1;
    while (i < text.length() && isDigit(text.charAt(i))) {
      i++;
    }
    return i < text.length() && text.charAt(i) == ',';
  }

  private static int end(Matcher matcher) {
    return matcher.lookingAt() ? matcher.end() : 0;
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }
}
