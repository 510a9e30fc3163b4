package dev.tokentrace.parse.trtllm;

import dev.tokentrace.parse.Timestamps;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * Triton server's glog lines around the tensorrtllm_backend: {@code <L><MMDD> <HH:MM:SS.uuuuuu>
 * <pid> <file>:<line>] <msg>} (docs/formats/trtllm.md#triton-lines). Triton ≥ ~24.05 (triton common
 * #118, 2024-05-21) prints the message as a quoted, backslash-escaped string; older Triton prints
 * it raw. The Triton-specific parts make these TensorRT-LLM lines for detection purposes only
 * together with the backend's stats keys, so {@code trtSpecific} is false.
 */
final class TritonLines {
  private TritonLines() {}

  static @Nullable LogHeader parse(String line, Timestamps.Local times, LogHeaders headers) {
    if (line.charAt(8) != ':' || line.charAt(14) != '.' || line.charAt(21) != ' ') {
      return null;
    }
    int at = 21;
    while (at < line.length() && line.charAt(at) == ' ') {
      at++;
    }
    int pidEnd = at;
    while (pidEnd < line.length() && Character.isDigit(line.charAt(pidEnd))) {
      pidEnd++;
    }
    if (pidEnd == at || pidEnd >= line.length() || line.charAt(pidEnd) != ' ') {
      return null;
    }
    int close = line.indexOf(']', pidEnd);
    int colon = close < 0 ? -1 : line.lastIndexOf(':', close);
    if (colon <= pidEnd || Timestamps.digits(line, colon + 1, close - colon - 1) < 0) {
      return null;
    }
    Instant ts = times.tritonGlog(line, 1);
    if (ts == null) {
      headers.fail("triton line: bad timestamp");
      return null;
    }
    String message = close + 1 < line.length() ? line.substring(close + 1).stripLeading() : "";
    return new LogHeader(
        level(line.charAt(0)), ts, null, unquote(message), LogHeader.Origin.TRITON);
  }

  private static String level(char letter) {
    switch (letter) {
      case 'W':
        return "WARNING";
      case 'E':
        return "ERROR";
      case 'F':
        return "FATAL";
      default:
        return "INFO";
    }
  }

  /** {@code "loading: tensorrt_llm:1"} to {@code loading: tensorrt_llm:1}; raw text unchanged. */
  static String unquote(String message) {
    int length = message.length();
    if (length < 2 || message.charAt(0) != '"' || message.charAt(length - 1) != '"') {
      return message;
    }
    StringBuilder text = new StringBuilder(length);
    for (int i = 1; i < length - 1; i++) {
      char c = message.charAt(i);
      if (c == '\\' && i + 1 < length - 1) {
        char next = message.charAt(++i);
        text.append(next == 'n' ? '\n' : next == 't' ? '\t' : next);
      } else {
        text.append(c);
      }
    }
    return text.toString();
  }
}
