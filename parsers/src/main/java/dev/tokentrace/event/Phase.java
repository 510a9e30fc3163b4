package dev.tokentrace.event;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** What a batch step ran: only prefill, only decode, or both in one step (chunked prefill). */
public enum Phase {
  PREFILL,
  DECODE,
  MIXED;

  @JsonValue
  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }

  @JsonCreator
  public static Phase fromId(String id) {
    return valueOf(id.trim().toUpperCase(Locale.ROOT));
  }
}
