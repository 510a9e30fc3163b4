package dev.tokentrace.parse.vllm;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The shapes of Python traceback text, whether it arrives as continuation lines of a {@code
 * logger.exception} record (docs/formats/vllm.md#multi-line-records) or raw on stderr
 * (docs/formats/vllm.md#multi-line-records, last paragraph), and the out-of-memory markers that
 * make an error notice an {@code oom} one.
 */
final class Tracebacks {
  static final String START = "Traceback (most recent call last):";

  /** Matched case-insensitively in the first {@value #OOM_WINDOW} characters of a line. */
  private static final Pattern OOM =
      Pattern.compile(
          "out of memory|outofmemory|no available memory for the cache blocks",
          Pattern.CASE_INSENSITIVE);

  private static final int OOM_WINDOW = 4096;

  private static final String[] EXCEPTION_SUFFIXES = {
    "Error", "Exception", "Interrupt", "Exit", "Failure", "Timeout", "Cancelled"
  };

  private Tracebacks() {}

  /**
   * A line Python's traceback printer writes: the start line, frames and source lines (indented),
   * the chaining sentences, exception lines, and multiprocessing's {@code Process Name:} line.
   */
  static boolean isTracebackLine(String text) {
    return text.startsWith(START)
        || isIndented(text)
        || cppWhat(text) != null
        || text.startsWith("During handling of the above exception")
        || text.startsWith("The above exception was the direct cause")
        || isExceptionLine(text)
        || isProcessLine(text);
  }

  static boolean isIndented(String text) {
    return !text.isEmpty() && (text.charAt(0) == ' ' || text.charAt(0) == '\t');
  }

  /** A line that starts a traceback printed without a vLLM header. */
  static boolean startsTraceback(String text) {
    return text.startsWith(START) || isProcessLine(text) || isCppTerminate(text);
  }

  /**
   * {@code terminate called after throwing an instance of 'T'} (or {@code recursively}): a C++
   * exception escaping into Python; the {@code what(): …} line after it is its message
   * (docs/formats/layouts.md#cpp-what).
   */
  static boolean isCppTerminate(String text) {
    return text.startsWith("terminate called after throwing")
        || text.startsWith("terminate called recursively");
  }

  /** {@code what(): <message>} of a C++ exception, indented or not; null when not one. */
  static @Nullable String cppWhat(String text) {
    String stripped = text.strip();
    return stripped.startsWith("what():") ? stripped.substring("what():".length()).strip() : null;
  }

  /** {@code Process EngineCore_DP0:}, printed by multiprocessing before a child's traceback. */
  static boolean isProcessLine(String text) {
    if (!text.startsWith("Process ") || !text.endsWith(":")) {
      return false;
    }
    for (int at = "Process ".length(); at < text.length() - 1; at++) {
      char c = text.charAt(at);
      if (!(Ascii.isLetter(c) || Ascii.isDigit(c) || c == '_' || c == '-')) {
        return false;
      }
    }
    return text.length() > "Process :".length();
  }

  /**
   * {@code RuntimeError: ...}, {@code torch.OutOfMemoryError: ...}, {@code KeyboardInterrupt}: a
   * dotted name whose last part ends like an exception class, alone or followed by a colon.
   */
  static boolean isExceptionLine(String text) {
    int end = Ascii.identifierEnd(text, 0);
    if (end == 0 || (end < text.length() && text.charAt(end) != ':')) {
      return false;
    }
    String name = text.substring(text.lastIndexOf('.', end - 1) + 1, end);
    for (String suffix : EXCEPTION_SUFFIXES) {
      if (name.endsWith(suffix)) {
        return true;
      }
    }
    return false;
  }

  static boolean mentionsOutOfMemory(String text) {
    Matcher matcher = OOM.matcher(text);
    matcher.region(0, Math.min(text.length(), OOM_WINDOW));
    return matcher.find();
  }
}
