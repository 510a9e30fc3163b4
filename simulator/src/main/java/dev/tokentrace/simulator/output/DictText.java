package dev.tokentrace.simulator.output;

/**
 * Writes a flat-ish mapping either as a Python {@code repr} of a dict ({@code {'k': 'v', 'n': 1}},
 * as SGLang's request log prints meta_info) or as Python {@code json.dumps} output ({@code {"k":
 * "v", "n": 1}}, as its metrics exporter writes). Strings must not need escaping. Not thread-safe.
 */
final class DictText {
  private final StringBuilder out;
  private final char quote;
  private boolean first = true;

  private DictText(StringBuilder out, boolean json) {
    this.out = out;
    this.quote = json ? '"' : '\'';
  }

  /** Starts a dict: {@code json} picks JSON, otherwise Python repr. */
  static DictText open(StringBuilder out, boolean json) {
    out.append('{');
    return new DictText(out, json);
  }

  private StringBuilder key(String key) {
    if (!first) {
      out.append(", ");
    }
    first = false;
    return out.append(quote).append(key).append(quote).append(": ");
  }

  DictText string(String key, String value) {
    key(key).append(quote).append(value).append(quote);
    return this;
  }

  DictText integer(String key, long value) {
    key(key).append(value);
    return this;
  }

  /** Microseconds as seconds, Python float repr. */
  DictText seconds(String key, long us) {
    Decimals.seconds(key(key), us);
    return this;
  }

  /** A float rounded to six decimals, Python float repr. */
  DictText sixDecimals(String key, double value) {
    Decimals.sixDecimals(key(key), value);
    return this;
  }

  /** Text written as is (a Python/JSON literal such as {@code 0.0}). */
  DictText raw(String key, String literal) {
    key(key).append(literal);
    return this;
  }

  DictText bool(String key, boolean value) {
    key(key).append(quote == '"' ? (value ? "true" : "false") : (value ? "True" : "False"));
    return this;
  }

  /** A nested dict; call {@link #close()} on it before the next key of this one. */
  DictText dict(String key) {
    key(key).append('{');
    return new DictText(out, quote == '"');
  }

  void close() {
    out.append('}');
  }
}
