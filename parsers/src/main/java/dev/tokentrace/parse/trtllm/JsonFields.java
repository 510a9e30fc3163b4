package dev.tokentrace.parse.trtllm;

import com.fasterxml.jackson.databind.JsonNode;
import org.jspecify.annotations.Nullable;

/**
 * Typed reads from a TensorRT-LLM JSON record. A missing key or JSON {@code null} (how nlohmann and
 * Python serialize absent optionals) reads as null; a present value of the wrong kind throws {@link
 * BadValue} naming the key, which the record's mapper turns into a rejection. Python's {@code
 * NaN}/{@code Infinity} (allowed on read, since {@code json.dumps} writes them) read as null: they
 * mean "no value", never a number.
 */
final class JsonFields {
  private JsonFields() {}

  /** A present value of the wrong kind; carries no stack trace, it is bad input, not a bug. */
  static final class BadValue extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final String key;

    BadValue(String key) {
      super(key, null, false, false);
      this.key = key;
    }
  }

  static @Nullable JsonNode object(JsonNode parent, String key) {
    JsonNode value = parent.get(key);
    if (value == null || value.isNull()) {
      return null;
    }
    if (!value.isObject()) {
      throw new BadValue(key);
    }
    return value;
  }

  /** A non-negative count that fits an int; integral doubles ({@code 3.0}) are accepted. */
  static @Nullable Integer count(JsonNode parent, String key) {
    Long value = longCount(parent, key);
    if (value == null) {
      return null;
    }
    if (value > Integer.MAX_VALUE) {
      throw new BadValue(key);
    }
    return value.intValue();
  }

  static @Nullable Long longCount(JsonNode parent, String key) {
    JsonNode value = parent.get(key);
    if (value == null || value.isNull() || isNonFinite(value)) {
      return null;
    }
    if (value.isIntegralNumber() && value.canConvertToLong() && value.longValue() >= 0) {
      return value.longValue();
    }
    if (value.isFloatingPointNumber()) {
      double number = value.doubleValue();
      if (number >= 0 && number <= Long.MAX_VALUE && number == Math.rint(number)) {
        return (long) number;
      }
    }
    throw new BadValue(key);
  }

  /** Any finite number (durations may be negative after clock skew). */
  static @Nullable Double number(JsonNode parent, String key) {
    JsonNode value = parent.get(key);
    if (value == null || value.isNull() || isNonFinite(value)) {
      return null;
    }
    if (!value.isNumber()) {
      throw new BadValue(key);
    }
    double number = value.doubleValue();
    if (!Double.isFinite(number)) {
      // 1e999 and the like overflow to infinity: a number, but no usable one
      throw new BadValue(key);
    }
    return number;
  }

  static @Nullable Double nonNegative(JsonNode parent, String key) {
    Double value = number(parent, key);
    if (value != null && value < 0) {
      throw new BadValue(key);
    }
    return value;
  }

  static @Nullable String text(JsonNode parent, String key) {
    JsonNode value = parent.get(key);
    if (value == null || value.isNull()) {
      return null;
    }
    if (!value.isTextual()) {
      throw new BadValue(key);
    }
    return value.textValue();
  }

  /**
   * A request id as TensorRT-LLM writes it: the LLM-API client id is an int, other ids may be
   * strings. Null when absent; blank strings and other kinds are bad values.
   */
  static @Nullable String id(JsonNode parent, String key) {
    JsonNode value = parent.get(key);
    if (value == null || value.isNull()) {
      return null;
    }
    if (value.isIntegralNumber()) {
      return value.asText();
    }
    if (value.isTextual() && !value.textValue().isBlank() && value.textValue().length() <= 256) {
      return value.textValue().strip();
    }
    throw new BadValue(key);
  }

  private static boolean isNonFinite(JsonNode value) {
    return value.isFloatingPointNumber()
        && value.isDouble()
        && (Double.isNaN(value.doubleValue()) || Double.isInfinite(value.doubleValue()));
  }
}
