package dev.tokentrace.parse.trtllm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
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

  /**
   * A JSON object as the mappers read it: a whole tree ({@link #of}) or the keys a {@link
   * SparseTree} kept. {@link #get} answers as {@link JsonNode#get} does: null when the key is
   * absent, a {@code NullNode} for JSON {@code null}; a duplicate key reads as its last value.
   */
  interface Record {
    @Nullable JsonNode get(String key);

    /** The object under {@code key} as a record, as {@link JsonFields#object} reads it. */
    @Nullable Record object(String key);

    default boolean has(String key) {
      return get(key) != null;
    }

    static Record of(JsonNode node) {
      return new Tree(node);
    }
  }

  /** A whole tree as a {@link Record}. */
  private record Tree(JsonNode node) implements Record {
    @Override
    public @Nullable JsonNode get(String key) {
      return node.get(key);
    }

    @Override
    public @Nullable Record object(String key) {
      JsonNode child = JsonFields.object(node, key);
      return child == null ? null : new Tree(child);
    }
  }

  /** The object value of {@code key}; null when absent or JSON null, else BadValue. */
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
    return countValue(parent.get(key), key);
  }

  static @Nullable Integer count(Record parent, String key) {
    return countValue(parent.get(key), key);
  }

  private static @Nullable Integer countValue(@Nullable JsonNode node, String key) {
    Long value = longCountValue(node, key);
    if (value == null) {
      return null;
    }
    if (value > Integer.MAX_VALUE) {
      throw new BadValue(key);
    }
    return value.intValue();
  }

  static @Nullable Long longCount(JsonNode parent, String key) {
    return longCountValue(parent.get(key), key);
  }

  static @Nullable Long longCount(Record parent, String key) {
    return longCountValue(parent.get(key), key);
  }

  private static @Nullable Long longCountValue(@Nullable JsonNode value, String key) {
    if (value instanceof IntNode number) {
      // the common case, answered as below without the node's virtual accessors: an int is
      // integral and fits a long, so it is a count unless negative
      // (docs/formats/trtllm.md#json-reading-cost)
      int count = number.intValue();
      if (count < 0) {
        throw new BadValue(key);
      }
      return (long) count;
    }
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
    return numberValue(parent.get(key), key);
  }

  private static @Nullable Double numberValue(@Nullable JsonNode value, String key) {
    if (value instanceof DoubleNode number) {
      // as below: NaN and the infinities (written by Python, or 1e999 overflowing) read as null
      double real = number.doubleValue();
      return Double.isFinite(real) ? real : null;
    }
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
    return nonNegativeValue(parent.get(key), key);
  }

  static @Nullable Double nonNegative(Record parent, String key) {
    return nonNegativeValue(parent.get(key), key);
  }

  private static @Nullable Double nonNegativeValue(@Nullable JsonNode node, String key) {
    Double value = numberValue(node, key);
    if (value != null && value < 0) {
      throw new BadValue(key);
    }
    return value;
  }

  static @Nullable String text(JsonNode parent, String key) {
    return textValue(parent.get(key), key);
  }

  static @Nullable String text(Record parent, String key) {
    return textValue(parent.get(key), key);
  }

  private static @Nullable String textValue(@Nullable JsonNode value, String key) {
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
