package dev.tokentrace.parse.trtllm;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Reads one JSON object with a streaming parser into a {@link JsonFields.Record} of the keys a
 * mapper reads: each kept key's value becomes the node {@code ObjectReader.readTree} would make of
 * it, in a slot of an array, and every other value is skipped token by token, so the text is
 * checked just as strictly (same parser, same features and limits) without building a node per
 * value or an {@code ObjectNode} map. A line of iteration stats has ≈ 40 values of which the mapper
 * reads ≈ 15; building the whole tree, then a sparse {@code ObjectNode}, was most of the parse time
 * (BENCHMARKS.md, "Ingest and TensorRT-LLM JSON, round 5").
 *
 * <p>A kept key whose value is an array or object (other than a kept child object) keeps an empty
 * one: the mappers only check that such a value is not a number, string or object ({@link
 * JsonFields}) or that the key is there. Duplicate keys: the last one wins, as in the tree. The
 * record returned is reused by the next {@link #read}: not thread-safe, one per {@link
 * JsonRecords}.
 */
final class SparseTree {
  /** What a kept child object's slot holds; the record is read through {@link Level#object}. */
  private static final JsonNode OBJECT = JsonNodeFactory.instance.objectNode();

  private final ObjectReader reader;
  private final Level root;
  private final int maxStringLength;

  /**
   * {@code keys} are the top-level keys kept; {@code children} maps those whose value is read as an
   * object to the keys kept in it.
   */
  SparseTree(ObjectReader reader, Set<String> keys, Map<String, Set<String>> children) {
    this.reader = reader;
    this.root = new Level(keys, children);
    this.maxStringLength = reader.getFactory().streamReadConstraints().getMaxStringLength();
  }

  /**
   * True if {@link #read} gives what the full tree would: the parser checks the length of string
   * values only when it reads them, so text that could hold a too-long string goes the full way.
   */
  boolean covers(String json) {
    return json.length() <= maxStringLength && json.charAt(0) == '{';
  }

  /**
   * The object that starts {@code json} (which {@link #covers}), as a sparse record valid until the
   * next call; with {@code wholeLine}, anything after it fails as {@code FAIL_ON_TRAILING_TOKENS}
   * does. Malformed text throws as {@code readTree} does.
   */
  JsonFields.Record read(String json, boolean wholeLine) throws IOException {
    // Over the line's UTF-8 bytes, not its chars: Jackson's byte parser matches field names by
    // quads and skips values without copying them into a char buffer first (BENCHMARKS.md,
    // "TensorRT-LLM iteration stats JSON, round two"). Lines come from the strict UTF-8 reader, so
    // they hold no lone surrogate that encoding could change.
    try (JsonParser parser = reader.createParser(json.getBytes(StandardCharsets.UTF_8))) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        throw new IOException("not an object");
      }
      root.read(parser);
      if (wholeLine && parser.nextToken() != null) {
        throw new IOException("trailing token");
      }
      return root;
    }
  }

  /**
   * The kept keys of one object, their slots, and the values last read into them; and the order of
   * the keys in the objects read before, kept keys or not. A server writes its records' keys in the
   * same order every time, so each key is first tried as the one that came at that position last
   * time: Jackson's {@link JsonParser#nextFieldName(SerializableString)} compares the raw bytes of
   * the name, with no decoding, symbol table or map lookup, and falls back to reading the name when
   * they differ (another key, an escape), so what is read does not change.
   */
  private static final class Level implements JsonFields.Record {
    /** Positions remembered: a record with more keys is read by name from there on. */
    private static final int MAX_ORDER = 128;

    private final Map<String, Integer> slots = new HashMap<>();
    private final @Nullable JsonNode[] values;
    private final @Nullable Level[] children;
    private final List<Key> order = new ArrayList<>();

    /** A key as it came at a position: its name and its slot, -1 when not kept. */
    private record Key(SerializableString name, int slot) {}

    Level(Set<String> keys, Map<String, Set<String>> childKeys) {
      values = new JsonNode[keys.size()];
      children = new Level[keys.size()];
      for (String key : keys) {
        int slot = slots.size();
        slots.put(key, slot);
        Set<String> nested = childKeys.get(key);
        if (nested != null) {
          children[slot] = new Level(nested, Map.of());
        }
      }
    }

    @Override
    public @Nullable JsonNode get(String key) {
      Integer slot = slots.get(key);
      return slot == null ? null : values[slot];
    }

    @Override
    public JsonFields.@Nullable Record object(String key) {
      JsonNode value = get(key);
      if (value == null || value.isNull()) {
        return null;
      }
      if (!value.isObject()) {
        throw new JsonFields.BadValue(key);
      }
      Level child = children[slots.get(key)];
      return child != null ? child : JsonFields.Record.of(value);
    }

    /** Reads the rest of the object whose START_OBJECT is the current token. */
    void read(JsonParser parser) throws IOException {
      Arrays.fill(values, null);
      for (int at = 0; ; at++) {
        Key key = nextKey(parser, at);
        if (key == null) {
          break;
        }
        JsonToken token = parser.nextToken();
        int slot = key.slot();
        if (slot < 0) {
          parser.skipChildren();
          continue;
        }
        Level child = children[slot];
        if (token == JsonToken.START_OBJECT && child != null) {
          child.read(parser); // a duplicate key's object replaces the earlier one
          values[slot] = OBJECT;
        } else {
          values[slot] = value(parser, token);
        }
      }
      if (parser.currentToken() != JsonToken.END_OBJECT) {
        throw new IOException("unexpected token " + parser.currentToken());
      }
    }

    /** The key at position {@code at}, or null when the object ends (or something else comes). */
    private @Nullable Key nextKey(JsonParser parser, int at) throws IOException {
      Key expected = at < order.size() ? order.get(at) : null;
      String name;
      if (expected == null) {
        name = parser.nextFieldName();
      } else if (parser.nextFieldName(expected.name())) {
        return expected;
      } else {
        name = parser.currentToken() == JsonToken.FIELD_NAME ? parser.currentName() : null;
      }
      if (name == null) {
        return null;
      }
      Key key = new Key(new SerializedString(name), slots.getOrDefault(name, -1));
      if (at < order.size()) {
        order.set(at, key);
      } else if (at == order.size() && at < MAX_ORDER) {
        order.add(key);
      }
      return key;
    }
  }

  /** As {@code JsonNodeDeserializer} makes a node of each token, but containers stay empty. */
  private static JsonNode value(JsonParser parser, @Nullable JsonToken token) throws IOException {
    JsonNodeFactory nodes = JsonNodeFactory.instance;
    if (token == null) {
      throw new IOException("end of input");
    }
    switch (token) {
      case START_OBJECT:
        parser.skipChildren();
        return nodes.objectNode();
      case START_ARRAY:
        parser.skipChildren();
        return nodes.arrayNode();
      case VALUE_STRING:
        return nodes.textNode(parser.getText());
      case VALUE_NUMBER_INT:
        return integer(parser);
      case VALUE_NUMBER_FLOAT:
        return nodes.numberNode(parser.getDoubleValue());
      case VALUE_TRUE:
        return nodes.booleanNode(true);
      case VALUE_FALSE:
        return nodes.booleanNode(false);
      case VALUE_NULL:
        return nodes.nullNode();
      default:
        throw new IOException("unexpected token " + token);
    }
  }

  private static JsonNode integer(JsonParser parser) throws IOException {
    JsonNodeFactory nodes = JsonNodeFactory.instance;
    JsonParser.NumberType type = parser.getNumberType();
    if (type == JsonParser.NumberType.INT) {
      return nodes.numberNode(parser.getIntValue());
    }
    if (type == JsonParser.NumberType.LONG) {
      return nodes.numberNode(parser.getLongValue());
    }
    return nodes.numberNode(parser.getBigIntegerValue());
  }
}
