package dev.tokentrace.clients;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import dev.tokentrace.event.SourcePosition;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Streams a file of benchmark result objects with parallel per-request arrays (one object, or one
 * per line when the tool appends runs) and turns element {@code i} of the arrays into row {@code
 * i}. Rows are numbered through the file (the "line" of their position: a compact JSON file is one
 * text line); positions carry the object's byte offset. A syntax error ends the file with one
 * rejection, keeping the rows of the objects before it.
 */
final class ResultObjects {
  /** Maps one result object's arrays to rows. */
  interface Mapper {
    /** Checks an object before its rows; a {@link BadField} skips the object with that reason. */
    void begin(ParallelArrays arrays, SourcePosition position, ClientReaderOutput sink)
        throws BadField;

    /** Row {@code index} of the object, from the cursor's current elements. */
    ClientTiming row(
        ParallelArrays arrays, ParallelArrays.Cursor cursor, long index, SourcePosition position)
        throws BadField;
  }

  private ResultObjects() {}

  static void read(
      Path file, Map<String, ParallelArrays.Kind> wanted, Mapper mapper, ClientReaderOutput sink) {
    String path = file.toString();
    long ordinal = 0;
    try (InputStream in = Files.newInputStream(file);
        JsonParser parser = ClientJson.JSON.createParser(in)) {
      try {
        for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
          SourcePosition position = ClientJson.position(path, ordinal + 1, parser);
          SourcePosition line = ClientJson.lineOf(path, parser);
          if (token != JsonToken.START_OBJECT) {
            sink.rejected(new ClientRejection(line, "not a json object", ""));
            return;
          }
          ordinal = object(parser, new Start(position, line), mapper, sink, wanted);
        }
      } catch (JsonProcessingException e) {
        SourcePosition position = ClientJson.lineOf(path, e, parser);
        sink.rejected(new ClientRejection(position, ClientJson.malformed(e), ""));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + path, e);
    }
  }

  /**
   * Where an object starts: {@code rows} numbers its first row (the rows' own positions), {@code
   * line} is its text line, where rejections and warnings point (the arrays' elements have no line
   * of their own; a rejected row is named in the excerpt).
   */
  private record Start(SourcePosition rows, SourcePosition line) {}

  /** Reads one object and emits its rows; returns the last ordinal used. */
  private static long object(
      JsonParser parser,
      Start start,
      Mapper mapper,
      ClientReaderOutput sink,
      Map<String, ParallelArrays.Kind> wanted)
      throws IOException {
    SourcePosition position = start.rows();
    long ordinal = position.line() - 1;
    ParallelArrays arrays;
    try {
      arrays = ParallelArrays.read(parser, wanted);
    } catch (BadField e) {
      sink.rejected(new ClientRejection(start.line(), e.getMessage() + " (result skipped)", ""));
      skipToObjectEnd(parser);
      return ordinal;
    }
    try (arrays) {
      long rows = rowCount(arrays);
      mapper.begin(arrays, start.line(), sink);
      try (ParallelArrays.Cursor cursor = arrays.cursor()) {
        for (long index = 0; index < rows; index++) {
          cursor.next();
          SourcePosition rowPosition =
              new SourcePosition(position.path(), ordinal + index + 1, position.offset());
          try {
            sink.row(mapper.row(arrays, cursor, index, rowPosition));
          } catch (BadField e) {
            sink.rejected(
                new ClientRejection(start.line(), e.getMessage(), "request " + (index + 1)));
          }
        }
      }
      return ordinal + rows;
    } catch (BadField e) {
      sink.rejected(new ClientRejection(start.line(), e.getMessage() + " (result skipped)", ""));
      return ordinal;
    }
  }

  private static void skipToObjectEnd(JsonParser parser) throws IOException {
    while (parser.currentToken() != null
        && !(parser.currentToken() == JsonToken.END_OBJECT
            && parser.getParsingContext().inRoot())) {
      JsonToken token = parser.nextToken();
      if (token != null && token.isStructStart()) {
        parser.skipChildren();
      }
    }
  }

  /** The common length of the arrays; arrays of different lengths cannot be paired by index. */
  private static long rowCount(ParallelArrays arrays) throws BadField {
    Map<String, Long> lengths = arrays.lengths();
    if (lengths.isEmpty()) {
      return 0;
    }
    if (lengths.values().stream().distinct().count() > 1) {
      throw new BadField(
          "per-request arrays differ in length: "
              + lengths.entrySet().stream()
                  .map(entry -> entry.getKey() + "=" + entry.getValue())
                  .collect(Collectors.joining(", ")));
    }
    return lengths.values().iterator().next();
  }
}
