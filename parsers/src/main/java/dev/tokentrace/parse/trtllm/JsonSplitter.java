package dev.tokentrace.parse.trtllm;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.parse.ParseOutput;
import dev.tokentrace.parse.Rejection;
import org.jspecify.annotations.Nullable;

/**
 * Cuts JSON values out of physical lines: one object per line (JSON lines), a compact array on one
 * line ({@code /metrics} as served), or a pretty-printed array or object over many lines (the same
 * dumped with {@code indent}). Tracks depth, strings and escapes; hands each element of a top-level
 * array, or a top-level object, to the {@link Handler} as soon as it is complete, so memory is
 * bounded by one element, capped at {@link #maxChars} ({@code json value too large}).
 *
 * <p>Line reporting: a line on which an element starts is reported through that element's outcome;
 * every other line of a value is ignored as {@value #CONTINUATION_RULE}. A value still open at
 * {@link #abort} (a log line interrupts it, a line that cannot be JSON, end of source) is rejected
 * as {@code truncated json}. Not thread-safe.
 *
 * <p>Longer than the house's 200 lines on purpose: it is one character-level state machine, and its
 * invariants (depth, string state, where the current element started) are easier to check in one
 * place than spread over classes.
 */
final class JsonSplitter {
  static final String CONTINUATION_RULE = "trtllm: json continuation";
  static final String EMPTY_ARRAY_RULE = "trtllm: empty json array";

  /** Receives each complete element. */
  interface Handler {
    void element(String json, SourcePosition start, ParseOutput sink);

    /**
     * Handles {@code line} if it is exactly one complete JSON object and returns true; returns
     * false, having reported nothing, for anything else (cut, several values, malformed).
     */
    boolean wholeLine(String line, SourcePosition position, ParseOutput sink);
  }

  private final long maxChars;
  private final Handler handler;
  private final StringBuilder buffer = new StringBuilder();

  private boolean active;
  private boolean topArray;
  private int depth;
  private boolean inString;
  private boolean escape;
  private int elements;
  private @Nullable SourcePosition valueStart;
  private String valueLine = "";

  private boolean inElement;
  private boolean overflow;
  private @Nullable SourcePosition elementStart;

  JsonSplitter(long maxChars, Handler handler) {
    this.maxChars = maxChars;
    this.handler = handler;
  }

  boolean active() {
    return active;
  }

  /** True when a line can start a JSON value: {@code {"}, {@code {}}, {@code [{}, {@code [}... */
  static boolean beginsValue(String line) {
    char first = line.charAt(0);
    if (first != '{' && first != '[') {
      return false;
    }
    int at = 1;
    while (at < line.length() && Character.isWhitespace(line.charAt(at))) {
      at++;
    }
    if (at == line.length()) {
      return true;
    }
    char next = line.charAt(at);
    return first == '{' ? next == '"' || next == '}' : next == '{' || next == '[' || next == ']';
  }

  /**
   * True when a line can be the next line of an open value: after indentation it starts with a JSON
   * token (pretty printers never break inside a token). Anything else ends the value.
   */
  static boolean continuesValue(String line) {
    int at = 0;
    while (at < line.length() && Character.isWhitespace(line.charAt(at))) {
      at++;
    }
    if (at == line.length()) {
      return true;
    }
    if ("\"{}[],:-0123456789".indexOf(line.charAt(at)) >= 0) {
      return true;
    }
    for (String literal : LITERALS) {
      if (line.startsWith(literal, at)) {
        return true;
      }
    }
    return false;
  }

  /** Python's json.dumps writes NaN and Infinity as bare words, so they may start a line. */
  private static final String[] LITERALS = {"true", "false", "null", "NaN", "Infinity"};

  /** Feeds one line; the first line of a value must satisfy {@link #beginsValue}. */
  void feed(String line, SourcePosition position, ParseOutput sink) {
    if (!active) {
      // JSON lines, the common case: one object per line needs no character scan here
      if (line.charAt(0) == '{'
          && line.length() <= maxChars
          && line.stripTrailing().endsWith("}")
          && handler.wholeLine(line, position, sink)) {
        return;
      }
      begin(line, position);
    } else if (inElement && !overflow) {
      buffer.append('\n');
    }
    boolean reported = false;
    int segment = inElement ? 0 : -1;
    int length = line.length();
    for (int i = 0; i < length; i++) {
      char c = line.charAt(i);
      if (inString) {
        if (escape) {
          escape = false;
        } else if (c == '\\') {
          escape = true;
        } else if (c == '"') {
          inString = false;
        }
        continue;
      }
      if (c == '{' || c == '[') {
        if (!active) {
          begin(line, position);
        }
        depth++;
        if (!inElement && !(depth == 1 && c == '[')) {
          inElement = true;
          overflow = false;
          elementStart = position;
          segment = i;
          buffer.setLength(0);
          reported = true;
        } else if (depth == 1) {
          topArray = true;
        }
      } else if (c == '}' || c == ']') {
        depth--;
        if (depth < 0) {
          reject(sink, position, "json: malformed value", line);
          reset();
          return;
        }
        if (inElement && depth == (topArray ? 1 : 0)) {
          completeElement(line, segment, i + 1, sink);
          segment = -1;
        }
        if (depth == 0) {
          reported |= endValue(position, sink);
        }
      } else if (!inElement && !Character.isWhitespace(c) && c != ',') {
        // a scalar inside a top-level array, or text after a complete value: not our record
        reject(
            sink,
            position,
            active ? "json array: non-object element" : "json: trailing characters",
            line);
        reset();
        return;
      } else if (c == '"' && inElement) {
        inString = true;
      }
    }
    endLine(line, segment, position, sink, reported);
  }

  private void endLine(
      String line, int segment, SourcePosition position, ParseOutput sink, boolean reported) {
    if (inString) {
      // JSON strings cannot span lines: the value was cut here
      abort(sink);
      if (!reported) {
        sink.ignored(position, CONTINUATION_RULE);
      }
      return;
    }
    if (inElement) {
      append(line, segment, line.length(), sink);
    }
    if (!reported) {
      sink.ignored(position, CONTINUATION_RULE);
    }
  }

  /** Ends an open value as {@code truncated json}; no-op when none is open. */
  void abort(ParseOutput sink) {
    if (!active) {
      return;
    }
    if (inElement && !overflow && elementStart != null) {
      reject(sink, elementStart, "truncated json", buffer.toString());
    } else if (valueStart != null) {
      reject(sink, valueStart, "truncated json", valueLine);
    }
    reset();
  }

  private void begin(String line, SourcePosition position) {
    active = true;
    topArray = false;
    depth = 0;
    elements = 0;
    valueStart = position;
    valueLine = line;
  }

  private boolean endValue(SourcePosition position, ParseOutput sink) {
    boolean empty = topArray && elements == 0;
    active = false;
    topArray = false;
    if (empty) {
      sink.ignored(position, EMPTY_ARRAY_RULE);
    }
    return empty;
  }

  private void completeElement(String line, int segment, int end, ParseOutput sink) {
    inElement = false;
    elements++;
    SourcePosition start = elementStart;
    if (overflow || start == null) {
      overflow = false;
      return;
    }
    String json;
    if (buffer.length() == 0 && segment >= 0) {
      if (end - segment > maxChars) {
        reject(sink, start, "json value too large", line);
        return;
      }
      json = line.substring(segment, end);
    } else {
      append(line, Math.max(segment, 0), end, sink);
      json = overflow ? "" : buffer.toString();
      buffer.setLength(0);
    }
    if (!overflow) {
      handler.element(json, start, sink);
    }
    overflow = false;
  }

  private void append(String line, int from, int to, ParseOutput sink) {
    if (overflow || from < 0) {
      return;
    }
    if ((long) buffer.length() + (to - from) > maxChars) {
      overflow = true;
      String head =
          buffer.length() > 0 ? buffer.substring(0, Math.min(buffer.length(), 512)) : line;
      buffer.setLength(0);
      buffer.trimToSize();
      if (elementStart != null) {
        reject(sink, elementStart, "json value too large", head);
      }
      return;
    }
    buffer.append(line, from, to);
  }

  private void reset() {
    active = false;
    topArray = false;
    depth = 0;
    inString = false;
    escape = false;
    inElement = false;
    overflow = false;
    elementStart = null;
    valueStart = null;
    valueLine = "";
    buffer.setLength(0);
    if (buffer.capacity() > 1 << 20) {
      buffer.trimToSize();
    }
  }

  private static void reject(
      ParseOutput sink, SourcePosition position, String reason, String text) {
    sink.rejected(Rejection.of(position, Engine.TRTLLM, reason, text));
  }
}
