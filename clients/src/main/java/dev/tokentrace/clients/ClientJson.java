package dev.tokentrace.clients;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.tokentrace.event.SourcePosition;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.jspecify.annotations.Nullable;
import org.yaml.snakeyaml.LoaderOptions;

/**
 * The one Jackson setup of the client readers, and strict access to values in their trees.
 *
 * <p>Tolerated on purpose: {@code NaN} and {@code Infinity} literals (SGLang bench writes {@code
 * "request_rate": Infinity}, Python's json module writes NaN;
 * docs/formats/clients.md#sglang-bench-serving) and duplicate keys, the last one winning (the
 * AIPerf docs example repeats {@code time_to_first_token}; docs/formats/clients.md#aiperf). Values
 * are then checked here: a NaN duration is a bad value, never a number.
 */
final class ClientJson {
  /** Epoch values are accepted between these instants (as {@link StartTimestamps} does). */
  private static final Instant FROM = Instant.parse("2000-01-01T00:00:00Z");

  private static final Instant UNTIL = Instant.parse("2100-01-01T00:00:00Z");
  private static final int MAX_MESSAGE = 100;

  static final JsonFactory JSON =
      JsonFactory.builder()
          .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
          .streamReadConstraints(
              // one record can be large (a 100k-token generation's chunk list); 256 MB per string
              StreamReadConstraints.builder().maxStringLength(256 * 1024 * 1024).build())
          .build();

  static final ObjectMapper MAPPER = new ObjectMapper(JSON);

  private ClientJson() {}

  /** A YAML factory without SnakeYAML's 3 MB document limit (GuideLLM YAML is one document). */
  static YAMLFactory yaml() {
    LoaderOptions options = new LoaderOptions();
    options.setCodePointLimit(Integer.MAX_VALUE);
    return YAMLFactory.builder().loaderOptions(options).build();
  }

  /** The position of the value the parser is at: {@code ordinal} as line, its byte offset. */
  static SourcePosition position(String path, long ordinal, JsonParser parser) {
    JsonLocation location = parser.currentTokenLocation();
    long offset = location.getByteOffset();
    return new SourcePosition(path, ordinal, Math.max(0, offset));
  }

  /**
   * Where the parser's current token starts, by its text line: for rejections, which name the line
   * to look at (a row's own position numbers the file's rows, and a compact JSON file is one line).
   */
  static SourcePosition lineOf(String path, JsonParser parser) {
    return at(path, parser.currentTokenLocation());
  }

  /** Where a syntax error was found, by its text line. */
  static SourcePosition lineOf(String path, JsonProcessingException e, JsonParser parser) {
    JsonLocation location = e.getLocation();
    return at(path, location == null ? parser.currentLocation() : location);
  }

  private static SourcePosition at(String path, JsonLocation location) {
    return new SourcePosition(
        path, Math.max(1, location.getLineNr()), Math.max(0, location.getByteOffset()));
  }

  /** A short reason for a syntax error, without the document's content. */
  static String malformed(JsonProcessingException e) {
    String message = e.getOriginalMessage() == null ? "" : e.getOriginalMessage();
    int newline = message.indexOf('\n');
    String first = newline < 0 ? message : message.substring(0, newline);
    return "malformed json: "
        + (first.length() <= MAX_MESSAGE ? first : first.substring(0, MAX_MESSAGE - 1) + "…");
  }

  /** A number, or null when missing or JSON null; anything else is a bad value. */
  static @Nullable Double number(JsonNode parent, String field, String name) throws BadField {
    JsonNode node = parent.get(field);
    if (node == null || node.isNull()) {
      return null;
    }
    if (!node.isNumber()) {
      throw new BadField("bad '" + name + "' value " + ClientFields.quote(node.toString()));
    }
    return node.doubleValue();
  }

  /** An integral number (a token count, epoch ns), or null. */
  static @Nullable Long integer(JsonNode parent, String field, String name) throws BadField {
    JsonNode node = parent.get(field);
    if (node == null || node.isNull()) {
      return null;
    }
    if (node.isIntegralNumber() && node.canConvertToLong()) {
      return node.longValue();
    }
    if (node.isFloatingPointNumber() && node.doubleValue() == Math.rint(node.doubleValue())) {
      return (long) node.doubleValue(); // 128.0 from a float-typed writer
    }
    throw new BadField("bad '" + name + "' value " + ClientFields.quote(node.toString()));
  }

  /** A string, or null when missing or JSON null; a number is taken as its text. */
  static @Nullable String text(JsonNode parent, String field) {
    JsonNode node = parent.get(field);
    if (node == null || node.isNull() || node.isContainerNode()) {
      return null;
    }
    return node.asText();
  }

  /** Epoch nanoseconds as an instant, exactly; rejected outside 2000-2099. */
  static Instant epochNanos(String name, long nanos) throws BadField {
    Instant instant =
        Instant.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L))
            .plusNanos(Math.floorMod(nanos, 1_000_000_000L));
    return plausible(name, instant, Long.toString(nanos));
  }

  /** True when epoch nanoseconds fall in 2000-2099 (else: a monotonic clock or toy values). */
  static boolean isEpochNanos(long nanos) {
    return nanos >= FROM.getEpochSecond() * 1_000_000_000L
        && nanos < UNTIL.getEpochSecond() * 1_000_000_000L;
  }

  /** Epoch seconds (a Python {@code time.time()}), to the microsecond it carries. */
  static Instant epochSeconds(String name, double seconds) throws BadField {
    if (!Double.isFinite(seconds)) {
      throw new BadField("bad '" + name + "' value " + ClientFields.quote(String.valueOf(seconds)));
    }
    BigDecimal exact = new BigDecimal(seconds);
    long whole = exact.setScale(0, java.math.RoundingMode.FLOOR).longValue();
    long nanos = exact.subtract(BigDecimal.valueOf(whole)).movePointRight(9).longValue();
    // a double holds epoch seconds to ~0.2 us: round to whole microseconds, as Python printed them
    long micros = Math.round(nanos / 1000.0);
    return plausible(
        name, Instant.ofEpochSecond(whole).plusNanos(micros * 1000), String.valueOf(seconds));
  }

  /** True when epoch seconds fall in 2000-2099. */
  static boolean isEpochSeconds(double seconds) {
    return seconds >= FROM.getEpochSecond() && seconds < UNTIL.getEpochSecond();
  }

  private static Instant plausible(String name, Instant instant, String raw) throws BadField {
    if (instant.isBefore(FROM) || !instant.isBefore(UNTIL)) {
      throw new BadField(
          "bad '" + name + "' value " + ClientFields.quote(raw) + " (epoch not in 2000-2099)");
    }
    return instant;
  }

  /** Reads the objects of one array field of a file's top-level object (see {@link #readArray}). */
  @FunctionalInterface
  interface ElementReader {
    /** Reads one object of the array; the parser stands on its {@code START_OBJECT}. */
    void element(JsonParser parser) throws IOException;
  }

  /**
   * Streams a report whose rows are the objects of one array field of its top-level object
   * (GenAI-Perf's {@code experiments}, GuideLLM's {@code benchmarks}): every other field is skipped
   * unread; a file that is not an object, or JSON that breaks off, is one rejection at the line
   * where the parser stopped.
   */
  static void readArray(
      Path file,
      JsonFactory factory,
      ClientReaderOutput sink,
      String arrayField,
      String notThisFormat,
      ElementReader reader) {
    String path = file.toString();
    try (InputStream in = Files.newInputStream(file);
        JsonParser parser = factory.createParser(in)) {
      try {
        if (parser.nextToken() != JsonToken.START_OBJECT) {
          sink.rejected(new ClientRejection(lineOf(path, parser), notThisFormat, ""));
          return;
        }
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
          String name = parser.currentName();
          JsonToken value = parser.nextToken();
          if (arrayField.equals(name) && value == JsonToken.START_ARRAY) {
            while (parser.nextToken() == JsonToken.START_OBJECT) {
              reader.element(parser);
            }
          } else {
            parser.skipChildren();
          }
        }
      } catch (JsonProcessingException e) {
        sink.rejected(new ClientRejection(lineOf(path, e, parser), malformed(e), ""));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + path, e);
    }
  }
}
