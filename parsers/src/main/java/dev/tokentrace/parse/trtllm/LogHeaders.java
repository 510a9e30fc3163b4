package dev.tokentrace.parse.trtllm;

import dev.tokentrace.parse.Timestamps;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * Recognizes the logger prefixes of every TensorRT-LLM generation
 * (docs/formats/trtllm.md#logger-lines) with {@code startsWith}/{@code charAt} checks instead of
 * regexes, because every log line passes here. {@link #parse} returns null for a line that is no
 * logger line; when the prefix is recognized but broken it also returns null and {@link #failure}
 * says why. Not thread-safe.
 */
final class LogHeaders {
  static final String CPP_PREFIX = "[TensorRT-LLM]";
  static final String TRT_LLM_TAG = "[TRT-LLM] ";

  /** TensorRT's own Python logger uses {@code [TRT]} with the same layout (builder output). */
  static final String TRT_TAG = "[TRT] ";

  private final Timestamps.Local times;
  private @Nullable String failure;

  LogHeaders(Timestamps.Local times) {
    this.times = times;
  }

  /** Why the last {@link #parse} returned null for a recognized prefix; null otherwise. */
  @Nullable String failure() {
    return failure;
  }

  @Nullable LogHeader parse(String line) {
    failure = null;
    char first = line.charAt(0);
    if (first == '[') {
      if (line.startsWith(CPP_PREFIX)) {
        return cppClassic(line);
      }
      if (line.startsWith(TRT_LLM_TAG) || line.startsWith(TRT_TAG)) {
        return unified(line, line.indexOf(' ') + 1, null);
      }
      if (isPythonTimestamp(line)) {
        return python(line);
      }
      return null;
    }
    if (first == 'I' || first == 'W' || first == 'E' || first == 'F') {
      if (line.length() > 21 && Timestamps.digits(line, 1, 4) >= 0 && line.charAt(5) == ' ') {
        return TritonLines.parse(line, times, this);
      }
      return Uvicorn.parse(line);
    }
    return null;
  }

  void fail(String reason) {
    failure = reason;
  }

  /** {@code [MM/DD/YYYY-HH:MM:SS] } — the shape only; the values are checked when parsed. */
  static boolean isPythonTimestamp(String line) {
    return line.length() > 22
        && line.charAt(3) == '/'
        && line.charAt(6) == '/'
        && line.charAt(11) == '-'
        && line.charAt(20) == ']'
        && line.charAt(21) == ' ';
  }

  /**
   * {@code [TensorRT-LLM][LEVEL] msg}, {@code [TensorRT-LLM][LEVEL][rank] msg} ({@code logger.h @
   * 4f91d4a}) and the import banner {@code [TensorRT-LLM] TensorRT-LLM version: X}.
   */
  private @Nullable LogHeader cppClassic(String line) {
    int at = CPP_PREFIX.length();
    if (line.startsWith(" ", at)) {
      return new LogHeader("INFO", null, null, line.substring(at + 1), LogHeader.Origin.TRT);
    }
    if (!line.startsWith("[", at)) {
      return null;
    }
    int close = line.indexOf(']', at);
    String level = close < 0 ? null : cppLevel(line.substring(at + 1, close));
    if (level == null) {
      fail("log line: unknown level");
      return null;
    }
    at = close + 1;
    String rank = null;
    if (line.startsWith("[", at)) {
      int rankClose = line.indexOf(']', at);
      if (rankClose < 0 || Timestamps.digits(line, at + 1, rankClose - at - 1) < 0) {
        fail("log line: bad rank");
        return null;
      }
      rank = "RANK " + line.substring(at + 1, rankClose);
      at = rankClose + 1;
    }
    String message = line.length() > at ? line.substring(line.charAt(at) == ' ' ? at + 1 : at) : "";
    return new LogHeader(level, null, rank, message, LogHeader.Origin.TRT);
  }

  private static @Nullable String cppLevel(String name) {
    switch (name) {
      case "TRACE":
      case "DEBUG":
      case "INFO":
      case "WARNING":
      case "ERROR":
        return name;
      case "VERBOSE":
        return "DEBUG";
      default:
        return null;
    }
  }

  private @Nullable LogHeader python(String line) {
    Instant ts = times.trtllmPythonHeader(line, 1);
    if (ts == null) {
      fail("log line: bad timestamp");
      return null;
    }
    int at = 22;
    if (line.startsWith(TRT_LLM_TAG, at)) {
      return unified(line, at + TRT_LLM_TAG.length(), ts);
    }
    if (line.startsWith(TRT_TAG, at)) {
      return unified(line, at + TRT_TAG.length(), ts);
    }
    fail("log line: unknown logger");
    return null;
  }

  /**
   * Everything after {@code [TRT-LLM] }: the 2023 {@code [MPI_Rank n] } and 2025 {@code [RANK n] }
   * tags before the level, the one-letter level, and the 2026 (PR #13202/#14122) {@code [module]}
   * and {@code [RANK n]} tags after it. A bracket after the level counts as a module only when it
   * is a lower-case identifier, since older messages start with tags such as {@code
   * [MemUsageChange]} or {@code [kv cache manager]} (docs/formats/trtllm.md#line-prefixes caveat).
   */
  private @Nullable LogHeader unified(String line, int from, @Nullable Instant ts) {
    UnifiedTags tags = new UnifiedTags(line, from);
    String rank = tags.rank("[MPI_Rank ");
    if (rank == null) {
      rank = tags.rank("[RANK ");
    }
    String level = tags.level();
    if (level == null) {
      fail("log line: unknown level");
      return null;
    }
    if (tags.module()) {
      String moduleRank = tags.rank("[RANK ");
      rank = moduleRank == null ? rank : moduleRank;
    }
    return new LogHeader(level, ts, rank, tags.rest(), LogHeader.Origin.TRT);
  }

  /** {@code logger.py}: F internal error/critical, E, W, I, V verbose and debug, D (2026). */
  static @Nullable String pythonLevel(char letter) {
    switch (letter) {
      case 'F':
        return "FATAL";
      case 'E':
        return "ERROR";
      case 'W':
        return "WARNING";
      case 'I':
        return "INFO";
      case 'V':
        return "VERBOSE";
      case 'D':
        return "DEBUG";
      default:
        return null;
    }
  }
}
