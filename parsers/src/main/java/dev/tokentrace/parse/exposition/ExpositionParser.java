package dev.tokentrace.parse.exposition;

import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Reads one line of the Prometheus text format by scanning it character by character, as the
 * format's grammar describes it (docs/formats/metrics.md#text-exposition): a metric name, an
 * optional label set whose quoted values may hold the escapes {@code \\}, {@code \"} and {@code
 * \n}, a value ({@code NaN}, {@code +Inf}, {@code -Inf} included) and an optional integer timestamp
 * in milliseconds. Why not a library: no artifact served to this build parses the text format
 * (Prometheus client_java 1.x and simpleclient ship writers only; docs/formats/metrics.md#parser).
 * Stateless and thread-safe.
 */
public final class ExpositionParser {
  private ExpositionParser() {}

  /** What one line holds. */
  public sealed interface Result {}

  /** A sample line. */
  public record Sample(ExpositionLine line) implements Result {}

  /** {@code # TYPE name kind}. */
  public record Type(String name, String kind) implements Result {}

  /** {@code # HELP ...}, another comment, or a blank line. */
  public record Comment() implements Result {}

  /** A line that is not valid exposition text, with the reason. */
  public record Invalid(String reason) implements Result {}

  /** Parses {@code line} (without its terminator). */
  public static Result parse(String line) {
    String text = line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
    int start = skipBlanks(text, 0);
    if (start == text.length()) {
      return new Comment();
    }
    if (text.charAt(start) == '#') {
      return comment(text, start);
    }
    return new Scanner(text, start).sample();
  }

  private static Result comment(String text, int start) {
    String body = text.substring(start + 1).strip();
    if (body.startsWith("TYPE ")) {
      String[] parts = body.substring(5).strip().split("\\s+");
      if (parts.length != 2) {
        return new Invalid("bad # TYPE line");
      }
      return new Type(parts[0], parts[1]);
    }
    return new Comment();
  }

  private static int skipBlanks(String text, int from) {
    int at = from;
    while (at < text.length() && (text.charAt(at) == ' ' || text.charAt(at) == '\t')) {
      at++;
    }
    return at;
  }

  /** Scans one sample line; not reusable. */
  private static final class Scanner {
    private final String text;
    private int at;
    private @Nullable String error;

    Scanner(String text, int start) {
      this.text = text;
      this.at = start;
    }

    Result sample() {
      String name = name(true);
      if (name == null) {
        return new Invalid("bad metric name");
      }
      Map<String, String> labels = new LinkedHashMap<>();
      int afterName = skipBlanks(text, at);
      if (afterName < text.length() && text.charAt(afterName) == '{') {
        at = afterName + 1;
        if (!labels(labels)) {
          return new Invalid(error == null ? "bad label set" : error);
        }
      }
      int valueStart = skipBlanks(text, at);
      if (valueStart == at && at < text.length()) {
        return new Invalid("no blank before the value");
      }
      at = valueStart;
      String valueText = token();
      if (valueText.isEmpty()) {
        return new Invalid("no value");
      }
      Double value = value(valueText);
      if (value == null) {
        return new Invalid("bad value '" + valueText + "'");
      }
      at = skipBlanks(text, at);
      Long timestamp = null;
      if (at < text.length()) {
        String stamp = token();
        try {
          timestamp = Long.parseLong(stamp);
        } catch (NumberFormatException e) {
          return new Invalid("bad timestamp '" + stamp + "'");
        }
        at = skipBlanks(text, at);
        if (at < text.length()) {
          return new Invalid("text after the timestamp");
        }
      }
      return new Sample(new ExpositionLine(name, labels, value, timestamp));
    }

    private @Nullable String name(boolean metric) {
      int start = at;
      while (at < text.length()) {
        char c = text.charAt(at);
        boolean letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
        boolean other = (c >= '0' && c <= '9' && at > start) || (metric && c == ':');
        if (!letter && !other) {
          break;
        }
        at++;
      }
      return at == start ? null : text.substring(start, at);
    }

    private boolean labels(Map<String, String> labels) {
      while (true) {
        at = skipBlanks(text, at);
        if (at < text.length() && text.charAt(at) == '}') {
          at++;
          return true;
        }
        String key = name(false);
        if (key == null) {
          error = "bad label name";
          return false;
        }
        at = skipBlanks(text, at);
        if (!expect('=') || !expect('"')) {
          error = "label " + key + ": expected =\"";
          return false;
        }
        String value = quoted();
        if (value == null) {
          return false;
        }
        if (labels.put(key, value) != null) {
          error = "label " + key + " twice";
          return false;
        }
        at = skipBlanks(text, at);
        if (at < text.length() && text.charAt(at) == ',') {
          at++;
        } else if (!(at < text.length() && text.charAt(at) == '}')) {
          error = "label set not closed";
          return false;
        }
      }
    }

    /** The rest of a quoted label value, after its opening quote; escapes resolved. */
    private @Nullable String quoted() {
      StringBuilder value = new StringBuilder();
      while (at < text.length()) {
        char c = text.charAt(at++);
        if (c == '"') {
          return value.toString();
        }
        if (c == '\\') {
          if (at == text.length()) {
            break;
          }
          char escaped = text.charAt(at++);
          if (escaped == 'n') {
            value.append('\n');
          } else if (escaped == '\\' || escaped == '"') {
            value.append(escaped);
          } else {
            error = "bad escape \\" + escaped + " in a label value";
            return null;
          }
        } else {
          value.append(c);
        }
      }
      error = "label value not closed";
      return null;
    }

    private boolean expect(char wanted) {
      if (at < text.length() && text.charAt(at) == wanted) {
        at++;
        return true;
      }
      return false;
    }

    private String token() {
      int start = at;
      while (at < text.length() && text.charAt(at) != ' ' && text.charAt(at) != '\t') {
        at++;
      }
      return text.substring(start, at);
    }

    private static @Nullable Double value(String token) {
      switch (token) {
        case "NaN":
          return Double.NaN;
        case "+Inf":
        case "Inf":
          return Double.POSITIVE_INFINITY;
        case "-Inf":
          return Double.NEGATIVE_INFINITY;
        default:
          break;
      }
      for (int i = 0; i < token.length(); i++) {
        char c = token.charAt(i);
        if (!((c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E')) {
          return null; // Double.parseDouble would take "0x1p3", "1d", "Infinity"
        }
      }
      try {
        return Double.parseDouble(token);
      } catch (NumberFormatException e) {
        return null; // "1.2.3", "e5": malformed though every character is allowed
      }
    }
  }
}
