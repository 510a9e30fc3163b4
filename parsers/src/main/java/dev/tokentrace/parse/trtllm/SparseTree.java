package dev.tokentrace.parse.trtllm;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Reads one JSON object with a streaming parser into the tree {@code ObjectReader.readTree} would
 * build, minus every key nobody reads: the kept keys get the same node types and values, every
 * other value is skipped token by token, so the text is checked just as strictly (same parser, same
 * features and limits) without building a node per value. A line of iteration stats has ≈ 40 values
 * of which the mapper reads ≈ 15; building the whole tree (a {@code LinkedHashMap} per object, a
 * node per number) was most of the parse time (BENCHMARKS.md, "Parser throughput").
 *
 * <p>A kept key whose value is an array or object (other than a kept child object) keeps an empty
 * one: the mappers only check that such a value is not a number, string or object ({@link
 * JsonFields}) or that the key is there. Duplicate keys: the last one wins, as in the tree.
 */
final class SparseTree {
  private final ObjectReader reader;
  private final Set<String> keys;
  private final Map<String, Set<String>> children;
  private final int maxStringLength;

  /**
   * {@code keys} are the top-level keys kept; {@code children} maps those whose value is read as an
   * object to the keys kept in it.
   */
  SparseTree(ObjectReader reader, Set<String> keys, Map<String, Set<String>> children) {
    this.reader = reader;
    this.keys = keys;
    this.children = children;
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
   * The object that starts {@code json} (which {@link #covers}), as a sparse tree; with {@code
   * wholeLine}, anything after it fails as {@code FAIL_ON_TRAILING_TOKENS} does. Malformed text
   * throws as {@code readTree} does.
   */
  ObjectNode read(String json, boolean wholeLine) throws IOException {
    // Over the line's UTF-8 bytes, not its chars: Jackson's byte parser matches field names by
    // quads and skips values without copying them into a char buffer first (BENCHMARKS.md,
    // "TensorRT-LLM iteration stats JSON, round two"). Lines come from the strict UTF-8 reader, so
    // they hold no lone surrogate that encoding could change.
    try (JsonParser parser = reader.createParser(json.getBytes(StandardCharsets.UTF_8))) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        throw new IOException("not an object");
      }
      ObjectNode root = object(parser, keys, children);
      if (wholeLine && parser.nextToken() != null) {
        throw new IOException("trailing token");
      }
      return root;
    }
  }

  /** Reads the rest of the object whose START_OBJECT is the current token. */
  private static ObjectNode object(
      JsonParser parser, Set<String> kept, Map<String, Set<String>> children) throws IOException {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    String name;
    while ((name = parser.nextFieldName()) != null) {
      JsonToken token = parser.nextToken();
      if (!kept.contains(name)) {
        parser.skipChildren();
        continue;
      }
      Set<String> childKeys = children.get(name);
      JsonNode value;
      if (token == JsonToken.START_OBJECT && childKeys != null) {
        value = object(parser, childKeys, Map.of());
      } else {
        value = value(parser, token);
      }
      node.replace(name, value);
    }
    if (parser.currentToken() != JsonToken.END_OBJECT) {
      throw new IOException("unexpected token " + parser.currentToken());
    }
    return node;
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
