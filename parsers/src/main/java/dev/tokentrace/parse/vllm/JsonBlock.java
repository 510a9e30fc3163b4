package dev.tokentrace.parse.vllm;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.parse.ParseOutput;
import dev.tokentrace.parse.Rejection;
import org.jspecify.annotations.Nullable;

/**
 * A pretty-printed JSON document spread over lines (docs/formats/vllm-wild.md#pretty-otlp): it
 * starts with a line that is a lone {@code {}, and ends when its braces and brackets, counted
 * outside strings, close again. Lines inside are reported as ignored under {@link #RULE}; the whole
 * document is parsed at the position of its first line. Not thread-safe.
 */
final class JsonBlock {
  static final String RULE = "json: pretty-printed document line";

  /** Longer documents are rejected: a trace file this size is not one export. */
  static final int MAX_CHARS = 64 << 20;

  private @Nullable StringBuilder text;
  private @Nullable SourcePosition first;
  private int depth;
  private int lines;
  private boolean inString;
  private boolean escaped;

  /** Whether {@code line} (the engine text) opens a document: a lone brace. */
  static boolean opens(String line) {
    return line.strip().equals("{");
  }

  boolean active() {
    return text != null;
  }

  /**
   * Whether {@code line} may continue the open document: after the lone brace, only a key or the
   * closing brace may follow; later lines are free.
   */
  boolean continuesWith(String line) {
    if (lines > 1) {
      return true;
    }
    String stripped = line.strip();
    return stripped.startsWith("\"") || stripped.startsWith("}");
  }

  void start(String line, SourcePosition position) {
    text = new StringBuilder(line).append('\n');
    first = position;
    lines = 1;
    depth = 0;
    inString = false;
    escaped = false;
    scan(line);
  }

  /**
   * Adds a line; returns the complete document when this line closed it, else null (the line was
   * reported as ignored).
   */
  @Nullable Document add(String line, SourcePosition position, ParseOutput sink) {
    StringBuilder joined = text;
    SourcePosition start = first;
    if (joined == null || start == null) {
      throw new IllegalStateException("no open document");
    }
    if (joined.length() + line.length() > MAX_CHARS) {
      abort(sink, "json: pretty-printed document longer than " + MAX_CHARS + " characters");
      sink.ignored(position, RULE);
      return null;
    }
    joined.append(line).append('\n');
    lines++;
    scan(line);
    sink.ignored(position, RULE);
    if (depth > 0) {
      return null;
    }
    text = null;
    first = null;
    return new Document(joined.toString(), start);
  }

  /** The document ends without closing (a new log line, the end of the source): a rejection. */
  void abort(ParseOutput sink, String reason) {
    StringBuilder joined = text;
    SourcePosition start = first;
    text = null;
    first = null;
    if (joined != null && start != null) {
      sink.rejected(Rejection.of(start, Engine.VLLM, reason, joined.toString()));
    }
  }

  private void scan(String line) {
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (inString) {
        if (escaped) {
          escaped = false;
        } else if (c == '\\') {
          escaped = true;
        } else if (c == '"') {
          inString = false;
        }
      } else if (c == '"') {
        inString = true;
      } else if (c == '{' || c == '[') {
        depth++;
      } else if (c == '}' || c == ']') {
        depth--;
      }
    }
  }

  /** A complete document and the position of its first line. */
  record Document(String text, SourcePosition position) {}
}
