package dev.tokentrace.clients;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * A gateway's access-log line layout, compiled from the format string the gateway itself is
 * configured with: NGINX's {@code log_format} ({@code $variable}, {@code ${variable}}) or Envoy's
 * format string ({@code %OPERATOR%}, {@code %REQ(X)%}). Each variable becomes a capture group that
 * ends at the literal text after it, as log analysers such as GoAccess and lnav read them
 * (docs/formats/gateways.md#custom-formats). Immutable and thread-safe.
 */
final class AccessLogTemplate {
  private static final Pattern NGINX_VARIABLE =
      Pattern.compile("\\$(?:\\{([A-Za-z0-9_]+)\\}|([A-Za-z0-9_]+))");
  private static final Pattern ENVOY_OPERATOR =
      Pattern.compile("%([A-Z0-9_]+(?:\\([^)]*\\))?(?::\\d+)?)%");
  private static final Pattern DIRECTIVE =
      Pattern.compile(
          "^\\s*log_format\\s+(\\S+)\\s+(?:(escape=\\S+)\\s+)?(.*?);?\\s*$", Pattern.DOTALL);
  private static final Pattern QUOTED =
      Pattern.compile("'((?:[^'\\\\]|\\\\.)*)'|\"((?:[^\"\\\\]|\\\\.)*)\"");

  private final String source;
  private final Pattern line;
  private final List<String> fields;
  private final boolean json;

  private AccessLogTemplate(String source, Pattern line, List<String> fields, boolean json) {
    this.source = source;
    this.line = line;
    this.fields = List.copyOf(fields);
    this.json = json;
  }

  /**
   * An NGINX layout from a {@code log_format} directive ({@code log_format name [escape=json]
   * 'part' 'part';}, as in nginx.conf) or from the format string alone. Variable names are lower
   * case, without {@code $}.
   *
   * @throws IllegalArgumentException when the text holds no variable or an unsupported escape
   */
  static AccessLogTemplate nginx(String directiveOrFormat) {
    String text = directiveOrFormat.strip();
    boolean json = false;
    Matcher directive = DIRECTIVE.matcher(text);
    if (directive.matches()) {
      String escape = directive.group(2);
      if (escape != null
          && !escape.equals("escape=default")
          && !escape.equals("escape=json")
          && !escape.equals("escape=none")) {
        throw new IllegalArgumentException("unsupported log_format " + escape);
      }
      json = "escape=json".equals(escape);
      text = unquote(directive.group(3));
    } else if (text.startsWith("'") || text.startsWith("\"")) {
      text = unquote(text.endsWith(";") ? text.substring(0, text.length() - 1) : text);
    }
    List<String> fields = new ArrayList<>();
    StringBuilder regex = new StringBuilder("^");
    Matcher variable = NGINX_VARIABLE.matcher(text);
    int end = 0;
    while (variable.find()) {
      regex.append(Pattern.quote(text.substring(end, variable.start())));
      String name = variable.group(1) != null ? variable.group(1) : variable.group(2);
      fields.add(name.toLowerCase(Locale.ROOT));
      regex.append(json ? "((?:[^\"\\\\]|\\\\.)*?)" : "(.*?)");
      end = variable.end();
    }
    regex.append(Pattern.quote(text.substring(end))).append("$");
    if (fields.isEmpty()) {
      throw new IllegalArgumentException("log_format has no $variable: " + text);
    }
    return new AccessLogTemplate(text, Pattern.compile(regex.toString()), fields, json);
  }

  /**
   * An Envoy layout from a format string ({@code format} / {@code text_format}); operator names are
   * upper case as written, e.g. {@code START_TIME}, {@code REQ(X-REQUEST-ID)}.
   *
   * @throws IllegalArgumentException when the text holds no operator
   */
  static AccessLogTemplate envoy(String format) {
    String text = format.strip();
    if (text.length() >= 2
        && (text.startsWith("'") && text.endsWith("'")
            || text.startsWith("\"") && text.endsWith("\""))) {
      text = text.substring(1, text.length() - 1);
    }
    text = text.replace("\\n", "").stripTrailing();
    List<String> fields = new ArrayList<>();
    StringBuilder regex = new StringBuilder("^");
    Matcher operator = ENVOY_OPERATOR.matcher(text);
    int end = 0;
    while (operator.find()) {
      regex.append(Pattern.quote(text.substring(end, operator.start())));
      String name = operator.group(1);
      // %START_TIME(<strftime>)% is still the start time; other operators keep their argument
      fields.add(name.startsWith("START_TIME(") ? "START_TIME" : name.toUpperCase(Locale.ROOT));
      regex.append("(.*?)");
      end = operator.end();
    }
    regex.append(Pattern.quote(text.substring(end))).append("$");
    if (fields.isEmpty()) {
      throw new IllegalArgumentException("format string has no %OPERATOR%: " + text);
    }
    return new AccessLogTemplate(text, Pattern.compile(regex.toString()), fields, false);
  }

  /** The format string the layout was built from. */
  String source() {
    return source;
  }

  List<String> fields() {
    return fields;
  }

  boolean has(String field) {
    return fields.contains(field);
  }

  /**
   * The values of {@code text} by field (JSON escapes undone for {@code escape=json}), or null when
   * the line does not have this layout. A field logged twice keeps its last value.
   */
  @Nullable Map<String, String> match(String text) {
    Matcher matcher = line.matcher(text);
    if (!matcher.matches()) {
      return null;
    }
    Map<String, String> values = new LinkedHashMap<>();
    for (int i = 0; i < fields.size(); i++) {
      String value = matcher.group(i + 1);
      values.put(fields.get(i), json ? unescapeJson(value) : value);
    }
    return values;
  }

  /** The concatenation of the quoted strings of a directive (nginx joins them). */
  private static String unquote(String parts) {
    Matcher quoted = QUOTED.matcher(parts);
    StringBuilder text = new StringBuilder();
    boolean any = false;
    while (quoted.find()) {
      any = true;
      String part = quoted.group(1) != null ? quoted.group(1) : quoted.group(2);
      text.append(part.replace("\\'", "'").replace("\\\"", "\""));
    }
    return any ? text.toString() : parts.strip();
  }

  private static String unescapeJson(String value) {
    if (value.indexOf('\\') < 0) {
      return value;
    }
    StringBuilder out = new StringBuilder(value.length());
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c != '\\' || i + 1 == value.length()) {
        out.append(c);
        continue;
      }
      char next = value.charAt(++i);
      switch (next) {
        case 'n' -> out.append('\n');
        case 't' -> out.append('\t');
        case 'r' -> out.append('\r');
        case 'b' -> out.append('\b');
        case 'f' -> out.append('\f');
        case 'u' -> {
          String hex = i + 4 < value.length() ? value.substring(i + 1, i + 5) : "";
          if (hex.matches("[0-9A-Fa-f]{4}")) {
            out.append((char) Integer.parseInt(hex, 16));
            i += 4;
          } else {
            out.append("\\u");
          }
        }
        default -> out.append(next);
      }
    }
    return out.toString();
  }
}
