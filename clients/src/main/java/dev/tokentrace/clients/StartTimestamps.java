package dev.tokentrace.clients;

import dev.tokentrace.parse.Timestamps;
import java.time.Instant;

/**
 * A client's request start time as a field of a client row: the one timestamp reader's {@link
 * Timestamps#zonedOrEpoch} (ISO-8601 with a zone, or epoch s/ms/us/ns;
 * docs/formats/timestamps.md#epoch-numbers), its reason turned into the row's {@link BadField}.
 */
final class StartTimestamps {
  private StartTimestamps() {}

  static Instant parse(String raw) throws BadField {
    String text = raw.strip();
    if (text.isEmpty()) {
      throw new BadField("missing value for 'start_ts'");
    }
    Instant instant;
    try {
      instant = Timestamps.zonedOrEpoch(text);
    } catch (Timestamps.BadTimestamp e) {
      String reason = e.reason();
      throw new BadField(
          "bad 'start_ts' value "
              + ClientFields.quote(raw)
              + (reason == null ? "" : " (" + reason + ")"));
    }
    ClientRow.plausibleStart(instant);
    return instant;
  }
}
