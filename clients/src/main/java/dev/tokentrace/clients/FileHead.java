package dev.tokentrace.clients;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The first {@value #BYTES} bytes of a file, as format detection sees them: the text (decoded
 * leniently, without a BOM) and, for JSON, the field paths of the first value ({@code
 * metadata.x_request_id}; array levels are left out, a root array's element fields start with
 * {@code []}). A value cut off by the end of the head still yields the paths read so far.
 */
public final class FileHead {
  static final int BYTES = 64 * 1024;
  private static final int MAX_DEPTH = 4;

  private final String text;
  private final boolean binary;
  private final char root;
  private final Set<String> paths;

  private FileHead(String text, boolean binary, char root, Set<String> paths) {
    this.text = text;
    this.binary = binary;
    this.root = root;
    this.paths = paths;
  }

  /** Reads the head of {@code file}. */
  public static FileHead of(Path file) {
    byte[] bytes;
    try (InputStream in = Files.newInputStream(file)) {
      bytes = in.readNBytes(BYTES);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
    return of(bytes);
  }

  public static FileHead of(byte[] bytes) {
    boolean binary = false;
    for (byte b : bytes) {
      binary |= b == 0;
    }
    String text = new String(bytes, StandardCharsets.UTF_8);
    text = text.startsWith("\uFEFF") ? text.substring(1) : text;
    String stripped = text.stripLeading();
    char root = stripped.isEmpty() ? ' ' : stripped.charAt(0);
    Set<String> paths = root == '{' || root == '[' ? paths(stripped) : Set.of();
    return new FileHead(text, binary, root, paths);
  }

  /** Field paths of the first JSON value, as far as the head goes. */
  private static Set<String> paths(String json) {
    Set<String> paths = new LinkedHashSet<>();
    Deque<String> containers = new ArrayDeque<>();
    try (JsonParser parser = ClientJson.JSON.createParser(json)) {
      for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
        if (token == JsonToken.FIELD_NAME) {
          if (containers.size() <= MAX_DEPTH) {
            paths.add(join(containers.peek(), parser.currentName()));
          }
        } else if (token.isStructStart()) {
          containers.push(containerPath(parser, containers, token));
        } else if (token.isStructEnd()) {
          containers.pop();
          if (containers.isEmpty()) {
            break; // the first value is complete; the next JSON line says nothing new
          }
        }
      }
    } catch (IOException e) {
      // the head ends inside the value, or it is not JSON after all: keep what was read
      return paths;
    }
    return paths;
  }

  /** An object or array's path: its field's path, its array's path, or the root's. */
  private static String containerPath(JsonParser parser, Deque<String> containers, JsonToken token)
      throws IOException {
    if (containers.isEmpty()) {
      return token == JsonToken.START_ARRAY ? "[]" : "";
    }
    boolean inArray = parser.getParsingContext().getParent().inArray();
    return inArray ? containers.peek() : join(containers.peek(), parser.currentName());
  }

  private static String join(String parent, String name) {
    return parent.isEmpty() ? name : parent + "." + name;
  }

  String text() {
    return text;
  }

  String firstLine() {
    int newline = text.indexOf('\n');
    String line = newline < 0 ? text : text.substring(0, newline);
    return line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
  }

  public boolean isEmpty() {
    return text.isBlank();
  }

  public boolean isBinary() {
    return binary;
  }

  boolean isJsonObject() {
    return root == '{';
  }

  boolean isJsonArray() {
    return root == '[';
  }

  /** True when the first JSON value has this field path. */
  boolean has(String path) {
    return paths.contains(path);
  }

  /** True when it has any of these paths. */
  boolean hasAny(String... candidates) {
    for (String path : candidates) {
      if (paths.contains(path)) {
        return true;
      }
    }
    return false;
  }
}
