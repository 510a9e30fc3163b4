package dev.tokentrace.store.query;

import java.util.Locale;

/** How {@code tokentrace sql} prints rows. */
public enum QueryOutputFormat {
  /** An aligned Markdown table with durations to 3 decimals, then a row count. */
  TABLE("table"),
  /** RFC 4180 CSV with a header, full precision. */
  CSV("csv"),
  /** A JSON array of objects, one per line; timestamps as ISO-8601 strings. */
  JSON("json"),
  /** One block per row, one {@code column | value} line per column (psql's {@code \x}). */
  VERTICAL("vertical");

  private final String id;

  QueryOutputFormat(String id) {
    this.id = id;
  }

  public String id() {
    return id;
  }

  /**
   * The format with this id.
   *
   * @throws IllegalArgumentException listing the ids when there is none
   */
  public static QueryOutputFormat fromId(String id) {
    String wanted = id.strip().toLowerCase(Locale.ROOT);
    for (QueryOutputFormat format : values()) {
      if (format.id.equals(wanted)) {
        return format;
      }
    }
    throw new IllegalArgumentException(
        "unknown output format '" + id + "' (known: table, csv, json, vertical)");
  }
}
