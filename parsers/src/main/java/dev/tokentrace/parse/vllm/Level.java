package dev.tokentrace.parse.vllm;

import org.jspecify.annotations.Nullable;

/**
 * Python logging level names as vLLM prints them in its record header
 * (docs/formats/vllm.md#record-header).
 */
enum Level {
  DEBUG,
  INFO,
  WARNING,
  ERROR,
  CRITICAL;

  /** True for the levels whose records become error notices (ERROR, CRITICAL). */
  boolean isError() {
    return this == ERROR || this == CRITICAL;
  }

  /** The level whose name followed by a space starts at {@code at}, or null. */
  static @Nullable Level at(String line, int at) {
    if (at >= line.length()) {
      return null;
    }
    Level level;
    switch (line.charAt(at)) {
      case 'D':
        level = DEBUG;
        break;
      case 'I':
        level = INFO;
        break;
      case 'W':
        level = WARNING;
        break;
      case 'E':
        level = ERROR;
        break;
      case 'C':
        level = CRITICAL;
        break;
      default:
        return null;
    }
    String name = level.name();
    int end = at + name.length();
    boolean matches = line.startsWith(name, at) && end < line.length() && line.charAt(end) == ' ';
    return matches ? level : null;
  }
}
