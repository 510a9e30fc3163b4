package dev.tokentrace.parse.sglang;

import org.jspecify.annotations.Nullable;

/**
 * A custom logging format's bracketed logger field that carries SGLang's rank tags and the source
 * location: {@code [DP9 TP9 EP9 scheduler.py:860] }
 * (docs/formats/sglang-wild.md#rank-in-logger-field), found where SGLang's own prefix is missing or
 * where a date-only prefix precedes it. The tags are SGLang's rank prefix ({@code DP}, {@code TP},
 * {@code PP}, {@code EP}, {@code ATTN_CP}, ..., each with digits) moved from {@code [%(asctime)s
 * <tags>]} into the logger field by the format. Stateless.
 */
final class LoggerField {
  /** The end of the field and its tags ({@code "DP9 TP9 EP9"}, or null when it has none). */
  record Field(int end, @Nullable String tags) {}

  private LoggerField() {}

  /**
   * The field starting with {@code [} at {@code from}, followed by a space or the end; null unless
   * it holds rank tags, a {@code file.py:line} location, or both (rank tags first).
   */
  static @Nullable Field at(String line, int from) {
    int length = line.length();
    if (from >= length || line.charAt(from) != '[') {
      return null;
    }
    int q = from + 1;
    // deployments pad the field: [ DP15 TP15 EP15 file.py:222] (docs/formats/layouts.md#rank-field)
    while (q < length && q - from < 4 && line.charAt(q) == ' ') {
      q++;
    }
    int tagsStart = q;
    int tagsEnd = -1;
    while (q < length) {
      int tagEnd = tagEnd(line, q);
      if (tagEnd < 0) {
        break;
      }
      tagsEnd = tagEnd;
      q = tagEnd;
      if (q < length && line.charAt(q) == ' ') {
        q++;
      } else {
        break;
      }
    }
    int location = locationEnd(line, q);
    if (location > q) {
      q = location;
    } else if (tagsEnd < 0) {
      return null;
    } else {
      q = tagsEnd;
    }
    if (q >= length || line.charAt(q) != ']') {
      return null;
    }
    int end = q + 1 < length && line.charAt(q + 1) == ' ' ? q + 2 : q + 1;
    return new Field(end, tagsEnd < 0 ? null : line.substring(tagsStart, tagsEnd));
  }

  /** The field whose {@code ] } ends right before {@code bodyStart}, or null. */
  static @Nullable Field before(String line, int bodyStart) {
    if (bodyStart < 3 || line.charAt(bodyStart - 1) != ' ' || line.charAt(bodyStart - 2) != ']') {
      return null;
    }
    int open = line.lastIndexOf('[', bodyStart - 2);
    if (open < 0) {
      return null;
    }
    Field field = at(line, open);
    return field != null && field.end() == bodyStart ? field : null;
  }

  /** The end of one {@code TAG<digits>} at {@code at}, or -1. */
  private static int tagEnd(String line, int at) {
    int i = at;
    int length = line.length();
    while (i < length
        && ((line.charAt(i) >= 'A' && line.charAt(i) <= 'Z') || line.charAt(i) == '_')) {
      i++;
    }
    int digits = i;
    while (i < length && Character.isDigit(line.charAt(i))) {
      i++;
    }
    if (digits == at
        || i == digits
        || (i < length && line.charAt(i) != ' ' && line.charAt(i) != ']')) {
      return -1;
    }
    return i;
  }

  /** The end of {@code name.py:123} at {@code at}, or -1. */
  static int locationEnd(String line, int at) {
    int colon = line.indexOf(".py:", at);
    if (colon <= at || colon - at > 120) {
      return -1;
    }
    for (int i = at; i < colon; i++) {
      char c = line.charAt(i);
      if (c == ' ' || c == ']' || c == '[') {
        return -1;
      }
    }
    int i = colon + 4;
    int digits = i;
    while (i < line.length() && Character.isDigit(line.charAt(i))) {
      i++;
    }
    return i > digits ? i : -1;
  }
}
