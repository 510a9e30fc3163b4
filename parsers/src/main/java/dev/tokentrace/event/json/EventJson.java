package dev.tokentrace.event.json;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonInclude.Include;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import dev.tokentrace.event.EngineEvent;
import java.io.IOException;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import org.jspecify.annotations.Nullable;

/**
 * Reads and writes events as one-line JSON objects: snake_case fields, a stable {@code type}
 * property, timestamps as UTC ISO-8601 with milliseconds ({@code 2026-02-13T11:33:33.000Z}), nulls
 * omitted. Thread-safe.
 */
public final class EventJson {
  /** Always three fractional digits, always {@code Z}: golden files and SQL see one shape. */
  public static final DateTimeFormatter TIMESTAMP =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  private static final ObjectMapper MAPPER = newMapper();
  private static final ObjectWriter WRITER = MAPPER.writerFor(EngineEvent.class);
  private static final ObjectReader READER = MAPPER.readerFor(EngineEvent.class);

  private EventJson() {}

  /** A mapper configured like the event codec, for callers that embed events in larger JSON. */
  public static ObjectMapper mapper() {
    return MAPPER;
  }

  /** The event as one line of JSON (no trailing newline). */
  public static String write(EngineEvent event) {
    try {
      return WRITER.writeValueAsString(event);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot serialize " + event.type() + " event", e);
    }
  }

  /**
   * Parses one event.
   *
   * @throws IllegalArgumentException when the text is not a valid event, with Jackson's reason
   */
  public static EngineEvent read(String json) {
    try {
      return READER.readValue(json);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not a tokentrace event: " + e.getOriginalMessage(), e);
    }
  }

  private static ObjectMapper newMapper() {
    SimpleModule instants = new SimpleModule("tokentrace-instants");
    instants.addSerializer(Instant.class, new InstantSerializer());
    instants.addDeserializer(Instant.class, new InstantDeserializer());
    return new ObjectMapper()
        .registerModule(instants)
        .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
        .setDefaultPropertyInclusion(
            JsonInclude.Value.construct(Include.NON_NULL, Include.NON_NULL))
        .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
        .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
  }

  private static final class InstantSerializer extends JsonSerializer<Instant> {
    @Override
    public void serialize(Instant value, JsonGenerator generator, SerializerProvider provider)
        throws IOException {
      generator.writeString(formatCanonical(value));
    }
  }

  private static final class InstantDeserializer extends JsonDeserializer<Instant> {
    @Override
    public Instant deserialize(JsonParser parser, DeserializationContext context)
        throws IOException {
      String text = parser.getValueAsString();
      Instant fast = parseCanonical(text);
      if (fast != null) {
        return fast;
      }
      try {
        return Instant.parse(text);
      } catch (DateTimeParseException e) {
        return (Instant) context.handleWeirdStringValue(Instant.class, text, e.getMessage());
      }
    }
  }

  /**
   * Reads the one shape {@link #TIMESTAMP} writes ({@code 2026-02-13T11:33:33.000Z}) without the
   * general ISO parser, which was most of the cost of reading an event in the sink; null for any
   * other shape, which then goes through {@link Instant#parse}. Public for the sink's streaming
   * decoder, which reads the same shape.
   */
  public static @Nullable Instant parseCanonical(@Nullable String text) {
    if (text == null
        || text.length() != 24
        || text.charAt(4) != '-'
        || text.charAt(7) != '-'
        || text.charAt(10) != 'T'
        || text.charAt(13) != ':'
        || text.charAt(16) != ':'
        || text.charAt(19) != '.'
        || text.charAt(23) != 'Z') {
      return null;
    }
    int year = digits(text, 0, 4);
    int month = digits(text, 5, 2);
    int day = digits(text, 8, 2);
    int hour = digits(text, 11, 2);
    int minute = digits(text, 14, 2);
    int second = digits(text, 17, 2);
    int millis = digits(text, 20, 3);
    if (year < 0
        || month < 1
        || month > 12
        || day < 1
        || hour < 0
        || hour > 23
        || minute < 0
        || minute > 59
        || second < 0
        || second > 59
        || millis < 0) {
      return null;
    }
    long days;
    try {
      days = LocalDate.of(year, month, day).toEpochDay();
    } catch (DateTimeException e) {
      return null; // February 30th and the like: let Instant.parse give its own error
    }
    return Instant.ofEpochSecond(
        days * 86_400 + hour * 3600L + minute * 60L + second, millis * 1_000_000L);
  }

  /** 1000-01-01T00:00:00Z: from here on {@link #TIMESTAMP}'s year has four digits and no sign. */
  private static final long FIRST_FOUR_DIGIT_SECOND =
      LocalDate.of(1000, 1, 1).toEpochDay() * 86_400;

  /** 10000-01-01T00:00:00Z: from here on {@link #TIMESTAMP} writes a sign and five digits. */
  private static final long FIRST_FIVE_DIGIT_SECOND =
      LocalDate.of(10_000, 1, 1).toEpochDay() * 86_400;

  /**
   * What {@link #TIMESTAMP} writes, character for character, without a formatter per value for the
   * years 1000-9999 (the others go through it): formatting was a twentieth of the shipping thread's
   * CPU in a JFR profile of {@code ingest} (BENCHMARKS.md, "Ingest and lake, round 4").
   */
  public static String formatCanonical(Instant instant) {
    long seconds = instant.getEpochSecond();
    if (seconds < FIRST_FOUR_DIGIT_SECOND || seconds >= FIRST_FIVE_DIGIT_SECOND) {
      return TIMESTAMP.format(instant);
    }
    LocalDate date = LocalDate.ofEpochDay(Math.floorDiv(seconds, 86_400));
    int ofDay = (int) Math.floorMod(seconds, 86_400);
    char[] text = new char[24];
    put(text, 0, date.getYear(), 4);
    text[4] = '-';
    put(text, 5, date.getMonthValue(), 2);
    text[7] = '-';
    put(text, 8, date.getDayOfMonth(), 2);
    text[10] = 'T';
    put(text, 11, ofDay / 3600, 2);
    text[13] = ':';
    put(text, 14, ofDay / 60 % 60, 2);
    text[16] = ':';
    put(text, 17, ofDay % 60, 2);
    text[19] = '.';
    put(text, 20, instant.getNano() / 1_000_000, 3); // SSS truncates, as here
    text[23] = 'Z';
    return new String(text);
  }

  /**
   * Whether {@link #formatCanonical} writes {@code instant} itself and {@link #parseCanonical}
   * reads it back as the same instant: whole milliseconds in the years 1000-9999.
   */
  public static boolean isCanonicalMillis(Instant instant) {
    long seconds = instant.getEpochSecond();
    return seconds >= FIRST_FOUR_DIGIT_SECOND
        && seconds < FIRST_FIVE_DIGIT_SECOND
        && instant.getNano() % 1_000_000 == 0;
  }

  /** {@code value} as {@code count} decimal digits, zero-padded, at {@code from}. */
  private static void put(char[] text, int from, int value, int count) {
    for (int i = from + count - 1; i >= from; i--) {
      text[i] = (char) ('0' + value % 10);
      value /= 10;
    }
  }

  /** The decimal value of {@code count} ASCII digits at {@code from}, or -1. */
  private static int digits(String text, int from, int count) {
    int value = 0;
    for (int i = from; i < from + count; i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      value = value * 10 + (c - '0');
    }
    return value;
  }
}
