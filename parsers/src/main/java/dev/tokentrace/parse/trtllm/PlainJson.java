package dev.tokentrace.parse.trtllm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.AbstractMap;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A hand-written reader for the plain JSON that TensorRT-LLM's serializers write (nlohmann's {@code
 * dump}, Python's {@code json.dumps}: ASCII keys, numbers, no escapes), giving the same sparse tree
 * as {@link SparseTree}'s Jackson read in a fraction of the time: Jackson's tokenizer alone (name
 * canonicalization, a char buffer per parser) ran at about 0.4 M stats lines per CPU-second.
 *
 * <p>It vouches only for a strict subset of JSON: printable ASCII without escapes, numbers of the
 * JSON grammar of at most {@value #MAX_NUMBER} characters and 18 integer digits, names of at most
 * {@value #MAX_NAME} characters, nesting of at most {@value #MAX_DEPTH}, nothing but whitespace
 * after the object. Within it Jackson accepts the text and reads the same values (the number type
 * by range as Jackson's {@code getNumberType}, floats with {@code Double.parseDouble} as Jackson
 * without its fast parser). For anything else {@link #read} returns null and the caller reads the
 * text with Jackson, which decides, rejections included. Not thread-safe; one instance per read.
 *
 * <p>Longer than the house's 200 lines on purpose, like {@link JsonSplitter}: one recursive-descent
 * reader whose subset rules (what it declines) are easier to check against JSON's grammar in one
 * place; its key table and slot map are nested because nothing else uses them.
 */
final class PlainJson {
  static final int MAX_DEPTH = 32;
  static final int MAX_NAME = 256;
  static final int MAX_NUMBER = 30;

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final String text;
  private final int length;
  private int at;

  private PlainJson(String text) {
    this.text = text;
    this.length = text.length();
  }

  /**
   * The kept keys of one object, found in place by the name's {@code String.hashCode} in an
   * open-addressing table, confirmed by text: no String per name, one comparison per kept name.
   */
  static final class Keys {
    private final String[] all;
    private final Map<String, Integer> slots = new HashMap<>();
    private final int[] table;
    private final Map<String, Keys> children = new HashMap<>();

    Keys(Set<String> keys, Map<String, Set<String>> children) {
      this.all = keys.toArray(String[]::new);
      this.table = new int[Integer.highestOneBit(Math.max(1, all.length) * 4) * 2];
      for (int i = 0; i < all.length; i++) {
        slots.put(all[i], i);
        int at = all[i].hashCode() & (table.length - 1);
        while (table[at] != 0) {
          at = (at + 1) & (table.length - 1);
        }
        table[at] = i + 1;
      }
      children.forEach((key, childKeys) -> this.children.put(key, new Keys(childKeys, Map.of())));
    }

    /** The kept key spelled by {@code text[from, to)}, or null. */
    @Nullable String find(String text, int from, int to) {
      int hash = 0;
      for (int i = from; i < to; i++) {
        hash = 31 * hash + text.charAt(i);
      }
      int at = hash & (table.length - 1);
      while (table[at] != 0) {
        String key = all[table[at] - 1];
        if (key.hashCode() == hash && key.length() == to - from && text.startsWith(key, from)) {
          return key;
        }
        at = (at + 1) & (table.length - 1);
      }
      return null;
    }

    /**
     * The keys kept in the object under {@code key}, or null when that value is not read inside.
     */
    @Nullable Keys child(String key) {
      return children.get(key);
    }

    /** The slot of a kept key, or -1. */
    int slot(@Nullable Object key) {
      Integer slot = slots.get(key);
      return slot == null ? -1 : slot;
    }
  }

  /**
   * The children of a sparse object: one slot per kept key. A {@code LinkedHashMap} per object was
   * a fifth of the read in JFR (entries, resizing); nothing here needs its order.
   */
  private static final class Slots extends AbstractMap<String, JsonNode> {
    private final Keys keys;
    private final @Nullable JsonNode[] values;

    Slots(Keys keys) {
      this.keys = keys;
      this.values = new JsonNode[keys.all.length];
    }

    @Override
    public @Nullable JsonNode get(@Nullable Object key) {
      int slot = keys.slot(key);
      return slot < 0 ? null : values[slot];
    }

    @Override
    public boolean containsKey(@Nullable Object key) {
      return get(key) != null;
    }

    @Override
    public @Nullable JsonNode put(String key, JsonNode value) {
      int slot = keys.slot(key);
      if (slot < 0) {
        throw new IllegalArgumentException("not a kept key: " + key);
      }
      JsonNode old = values[slot];
      values[slot] = value;
      return old;
    }

    @Override
    public Set<Map.Entry<String, JsonNode>> entrySet() {
      Map<String, JsonNode> entries = new LinkedHashMap<>();
      for (int i = 0; i < values.length; i++) {
        if (values[i] != null) {
          entries.put(keys.all[i], values[i]);
        }
      }
      return Collections.unmodifiableMap(entries).entrySet();
    }
  }

  /** The sparse tree of {@code text}, which starts with '{'; null when outside the subset. */
  static @Nullable ObjectNode read(String text, Keys keys) {
    PlainJson json = new PlainJson(text);
    ObjectNode root = json.object(keys, 1);
    if (root == null) {
      return null;
    }
    json.skipSpace();
    return json.at == json.length ? root : null;
  }

  /** The object at the cursor ('{'), its kept keys only; the cursor ends after its '}'. */
  private @Nullable ObjectNode object(Keys keys, int depth) {
    if (depth > MAX_DEPTH) {
      return null;
    }
    ObjectNode node = new ObjectNode(NODES, new Slots(keys));
    at++;
    skipSpace();
    if (is('}')) {
      at++;
      return node;
    }
    while (true) {
      int nameStart = at + 1;
      if (!is('"') || !skipString() || at - 1 - nameStart > MAX_NAME) {
        return null;
      }
      String key = keys.find(text, nameStart, at - 1);
      skipSpace();
      if (!is(':')) {
        return null;
      }
      at++;
      skipSpace();
      if (key == null) {
        if (!skipValue(depth)) {
          return null;
        }
      } else {
        JsonNode value = value(keys.child(key), depth);
        if (value == null) {
          return null;
        }
        node.replace(key, value);
      }
      skipSpace();
      if (is('}')) {
        at++;
        return node;
      }
      if (!is(',')) {
        return null;
      }
      at++;
      skipSpace();
    }
  }

  /**
   * The node of a kept key's value, as {@code JsonNodeDeserializer} makes it, except that arrays
   * and objects not read inside stay empty (see {@link SparseTree}).
   */
  private @Nullable JsonNode value(@Nullable Keys child, int depth) {
    if (at >= length) {
      return null;
    }
    char c = text.charAt(at);
    if (c == '{' && child != null) {
      return object(child, depth + 1);
    }
    if (c == '{' || c == '[') {
      boolean object = c == '{';
      return skipValue(depth) ? (object ? NODES.objectNode() : NODES.arrayNode()) : null;
    }
    if (c == '"') {
      int start = at + 1;
      return skipString() ? NODES.textNode(text.substring(start, at - 1)) : null;
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
      return number();
    }
    if (literal("true")) {
      return NODES.booleanNode(true);
    }
    if (literal("false")) {
      return NODES.booleanNode(false);
    }
    return literal("null") ? NODES.nullNode() : null;
  }

  private boolean skipValue(int depth) {
    if (at >= length) {
      return false;
    }
    char c = text.charAt(at);
    if (c == '{') {
      return depth < MAX_DEPTH && skipObject(depth + 1);
    }
    if (c == '[') {
      return depth < MAX_DEPTH && skipArray(depth + 1);
    }
    if (c == '"') {
      return skipString();
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
      return numberEnd() >= 0;
    }
    return literal("true") || literal("false") || literal("null");
  }

  private boolean skipObject(int depth) {
    at++;
    skipSpace();
    if (is('}')) {
      at++;
      return true;
    }
    while (true) {
      int nameStart = at + 1;
      if (!is('"') || !skipString() || at - 1 - nameStart > MAX_NAME) {
        return false;
      }
      skipSpace();
      if (!is(':')) {
        return false;
      }
      at++;
      skipSpace();
      if (!skipValue(depth)) {
        return false;
      }
      skipSpace();
      if (is('}')) {
        at++;
        return true;
      }
      if (!is(',')) {
        return false;
      }
      at++;
      skipSpace();
    }
  }

  private boolean skipArray(int depth) {
    at++;
    skipSpace();
    if (is(']')) {
      at++;
      return true;
    }
    while (true) {
      if (!skipValue(depth)) {
        return false;
      }
      skipSpace();
      if (is(']')) {
        at++;
        return true;
      }
      if (!is(',')) {
        return false;
      }
      at++;
      skipSpace();
    }
  }

  /** From an opening quote to after the closing one: printable ASCII, no escape. */
  private boolean skipString() {
    for (int i = at + 1; i < length; i++) {
      char c = text.charAt(i);
      if (c == '"') {
        at = i + 1;
        return true;
      }
      if (c < ' ' || c > '~' || c == '\\') {
        return false;
      }
    }
    return false;
  }

  /** An int, long or double node as Jackson makes it; null outside the subset. */
  private @Nullable JsonNode number() {
    int start = at;
    int integerDigits = numberEnd();
    if (integerDigits < 0) {
      return null;
    }
    if (integerDigits == Integer.MAX_VALUE) {
      return NODES.numberNode(Double.parseDouble(text.substring(start, at)));
    }
    long value = Long.parseLong(text, start, at, 10);
    return value == (int) value ? NODES.numberNode((int) value) : NODES.numberNode(value);
  }

  /**
   * Moves past a number of the JSON grammar followed by a delimiter: the count of integer digits of
   * an integer, {@link Integer#MAX_VALUE} for a fraction or exponent, -1 outside the subset.
   */
  private int numberEnd() {
    int start = at;
    if (is('-')) {
      at++;
    }
    int digitsStart = at;
    if (is('0')) {
      at++;
    } else if (!digits()) {
      return -1;
    }
    int integerDigits = at - digitsStart;
    boolean floating = false;
    if (is('.')) {
      at++;
      floating = true;
      if (!digits()) {
        return -1;
      }
    }
    if (is('e') || is('E')) {
      at++;
      floating = true;
      if (is('+') || is('-')) {
        at++;
      }
      if (!digits()) {
        return -1;
      }
    }
    if (at - start > MAX_NUMBER || (!floating && integerDigits > 18) || !atDelimiter()) {
      return -1;
    }
    return floating ? Integer.MAX_VALUE : integerDigits;
  }

  /** One or more ASCII digits; false when there is none. */
  private boolean digits() {
    int start = at;
    int i = at;
    while (i < length) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        break;
      }
      i++;
    }
    at = i;
    return i > start;
  }

  private boolean literal(String word) {
    if (!text.startsWith(word, at)) {
      return false;
    }
    at += word.length();
    if (atDelimiter()) {
      return true;
    }
    at -= word.length();
    return false;
  }

  /** After a number or literal only whitespace, ',', '}', ']' or the end may follow. */
  private boolean atDelimiter() {
    if (at >= length) {
      return true;
    }
    char c = text.charAt(at);
    return c == ',' || c == '}' || c == ']' || isSpace(c);
  }

  private void skipSpace() {
    int i = at;
    while (i < length && isSpace(text.charAt(i))) {
      i++;
    }
    at = i;
  }

  /** JSON whitespace; Jackson rejects other control characters, so they leave the subset. */
  private static boolean isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
  }

  private boolean is(char c) {
    return at < length && text.charAt(at) == c;
  }
}
