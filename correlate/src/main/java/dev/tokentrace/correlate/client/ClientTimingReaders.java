package dev.tokentrace.correlate.client;

import java.util.List;
import java.util.Locale;

/** The client timing readers by format id. */
public final class ClientTimingReaders {
  private static final List<ClientTimingReader> READERS = List.of(new CsvClientTimingReader());

  private ClientTimingReaders() {}

  /** Every reader, in detection priority order. */
  public static List<ClientTimingReader> all() {
    return READERS;
  }

  /** The format ids, for help texts. */
  public static List<String> formats() {
    return READERS.stream().map(ClientTimingReader::format).toList();
  }

  /**
   * The reader for {@code format}.
   *
   * @throws IllegalArgumentException listing the known formats when there is none
   */
  public static ClientTimingReader forFormat(String format) {
    String wanted = format.strip().toLowerCase(Locale.ROOT);
    for (ClientTimingReader reader : READERS) {
      if (reader.format().equals(wanted)) {
        return reader;
      }
    }
    throw new IllegalArgumentException(
        "unknown client format '" + format + "' (known: " + String.join(", ", formats()) + ")");
  }
}
