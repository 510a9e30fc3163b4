package dev.tokentrace.parse.trtllm;

import dev.tokentrace.parse.Timestamps;
import org.jspecify.annotations.Nullable;

/**
 * A cursor over the bracketed tags after {@code [TRT-LLM] } (docs/formats/trtllm.md#python-logger):
 * the 2023 {@code [MPI_Rank n] } and 2025 {@code [RANK n] } before the one-letter level, and the
 * 2026 (PR #13202/#14122) {@code [module]} and {@code [RANK n]} after it. One per line.
 */
final class UnifiedTags {
  private final String line;
  private int at;

  UnifiedTags(String line, int at) {
    this.line = line;
    this.at = at;
  }

  @Nullable String rank(String opening) {
    if (!line.startsWith(opening, at)) {
      return null;
    }
    int start = at + opening.length();
    int close = line.indexOf(']', start);
    if (close < 0 || Timestamps.digits(line, start, close - start) < 0) {
      return null;
    }
    at = close + 1;
    skipOneSpace();
    return "RANK " + line.substring(start, close);
  }

  @Nullable String level() {
    if (line.length() < at + 3 || line.charAt(at) != '[' || line.charAt(at + 2) != ']') {
      return null;
    }
    String level = LogHeaders.pythonLevel(line.charAt(at + 1));
    at += 3;
    skipOneSpace();
    return level;
  }

  /** Skips a 2026 module tag, space-padded in the intermediate form ({@code [%-8.*s]}). */
  boolean module() {
    if (!line.startsWith("[", at)) {
      return false;
    }
    int close = line.indexOf(']', at);
    if (close < 0 || close - at > 40) {
      return false;
    }
    String name = line.substring(at + 1, close).strip();
    if (!isModuleName(name)) {
      return false;
    }
    boolean followed = close + 1 == line.length() || " [".indexOf(line.charAt(close + 1)) >= 0;
    if (!followed) {
      return false;
    }
    at = close + 1;
    skipOneSpace();
    return true;
  }

  String rest() {
    return at >= line.length() ? "" : line.substring(at);
  }

  private void skipOneSpace() {
    if (at < line.length() && line.charAt(at) == ' ') {
      at++;
    }
  }

  static boolean isModuleName(String name) {
    if (name.isEmpty() || name.length() > 32) {
      return false;
    }
    char first = name.charAt(0);
    if (!(first == '_' || (first >= 'a' && first <= 'z'))) {
      return false;
    }
    for (int i = 1; i < name.length(); i++) {
      char c = name.charAt(i);
      if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) {
        return false;
      }
    }
    return true;
  }
}
