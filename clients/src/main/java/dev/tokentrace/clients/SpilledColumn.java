package dev.tokentrace.clients;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One per-request array of a result object, written element by element to a temporary file of
 * fixed-size records as the parser streams past it (see {@link ParallelArrays}): a number is a
 * double (NaN for null); a text a presence flag and its first {@value ParallelArrays#MAX_TEXT}
 * characters; an ITL list its count, max and sum. Not thread-safe.
 */
final class SpilledColumn {
  private final ParallelArrays.Kind kind;
  private final Path file;
  private final DataOutputStream out;
  private long length;

  private SpilledColumn(ParallelArrays.Kind kind, Path file) throws IOException {
    this.kind = kind;
    this.file = file;
    this.out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file)));
  }

  /** Spills the array whose {@code START_ARRAY} the parser is at, to its {@code END_ARRAY}. */
  static SpilledColumn spill(JsonParser parser, String name, ParallelArrays.Kind kind)
      throws IOException, BadField {
    SpilledColumn column =
        new SpilledColumn(kind, Files.createTempFile("tokentrace-" + name + "-", ".col"));
    try {
      for (JsonToken token = parser.nextToken();
          token != JsonToken.END_ARRAY;
          token = parser.nextToken()) {
        column.write(parser, token, name);
        column.length++;
      }
      return column;
    } catch (IOException | BadField | RuntimeException e) {
      column.delete();
      throw e;
    }
  }

  ParallelArrays.Kind kind() {
    return kind;
  }

  long length() {
    return length;
  }

  /** Flushes the file; {@link #open} reads it back. */
  void finish() throws IOException {
    out.close();
  }

  DataInputStream open() throws IOException {
    return new DataInputStream(new BufferedInputStream(Files.newInputStream(file)));
  }

  void delete() {
    try {
      out.close();
      Files.deleteIfExists(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + file, e);
    }
  }

  private void write(JsonParser parser, JsonToken token, String name) throws IOException, BadField {
    if (kind == ParallelArrays.Kind.NUMBER) {
      out.writeDouble(number(parser, token, name));
    } else if (kind == ParallelArrays.Kind.TEXT) {
      writeText(parser, token, name);
    } else {
      writeGaps(parser, token, name);
    }
  }

  private double number(JsonParser parser, JsonToken token, String name) throws BadField {
    if (token == JsonToken.VALUE_NULL) {
      return Double.NaN;
    }
    if (!token.isNumeric()) {
      throw new BadField("bad '" + name + "[" + length + "]' value (not a number)");
    }
    try {
      return parser.getDoubleValue();
    } catch (IOException e) {
      throw new BadField("bad '" + name + "[" + length + "]' value (not a number)");
    }
  }

  private void writeText(JsonParser parser, JsonToken token, String name)
      throws IOException, BadField {
    if (token == JsonToken.VALUE_NULL) {
      out.writeBoolean(false);
      return;
    }
    if (!token.isScalarValue()) {
      throw new BadField("bad '" + name + "[" + length + "]' value (not a string)");
    }
    String text = parser.getText();
    out.writeBoolean(true);
    out.writeUTF(
        text.length() <= ParallelArrays.MAX_TEXT
            ? text
            : text.substring(0, ParallelArrays.MAX_TEXT));
  }

  private void writeGaps(JsonParser parser, JsonToken token, String name)
      throws IOException, BadField {
    if (token == JsonToken.VALUE_NULL) {
      out.writeInt(-1);
      out.writeDouble(0);
      out.writeDouble(0);
      return;
    }
    if (token != JsonToken.START_ARRAY) {
      throw new BadField("bad '" + name + "[" + length + "]' value (not a list)");
    }
    int count = 0;
    double max = 0;
    double sum = 0;
    for (JsonToken gap = parser.nextToken(); gap != JsonToken.END_ARRAY; gap = parser.nextToken()) {
      double value = number(parser, gap, name);
      max = count == 0 ? value : Math.max(max, value);
      sum += value;
      count++;
    }
    out.writeInt(count);
    out.writeDouble(max);
    out.writeDouble(sum);
  }
}
