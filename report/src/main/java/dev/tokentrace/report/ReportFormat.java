package dev.tokentrace.report;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The report formats of {@code tokentrace report --format}. */
public enum ReportFormat {
  MARKDOWN("md"),
  HTML("html"),
  JSON("json");

  private final String id;

  ReportFormat(String id) {
    this.id = id;
  }

  /** The {@code --format} value. */
  public String id() {
    return id;
  }

  /**
   * The format with this id ({@code markdown} is accepted for {@code md}).
   *
   * @throws IllegalArgumentException listing the ids when there is none
   */
  public static ReportFormat fromId(String id) {
    String wanted = id.strip().toLowerCase(Locale.ROOT);
    if (wanted.equals("markdown")) {
      return MARKDOWN;
    }
    for (ReportFormat format : values()) {
      if (format.id.equals(wanted)) {
        return format;
      }
    }
    throw new IllegalArgumentException(
        "unknown report format '"
            + id
            + "' (known: "
            + Arrays.stream(values()).map(ReportFormat::id).collect(Collectors.joining(", "))
            + ")");
  }
}
