package dev.tokentrace.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * The demo's compact summary of a Markdown report: the latency attribution section up to its first
 * subsection (the intro and the component table) and the bottleneck paragraph. The whole report
 * goes to a file; a new user's terminal gets what answers "why is it slow" in a screenful.
 */
final class DemoSummary {
  /** The most lines the demo may print, summary and file list together (docs in README). */
  static final int MAX_LINES = 60;

  private DemoSummary() {}

  /** The summary's lines, taken from the report's own sections so both always agree. */
  static List<String> of(String markdown) {
    List<String> lines = markdown.lines().toList();
    List<String> summary = new ArrayList<>();
    summary.addAll(section(lines, "## Latency attribution"));
    List<String> bottleneck = section(lines, "## Bottleneck");
    if (!summary.isEmpty() && !bottleneck.isEmpty()) {
      summary.add("");
    }
    summary.addAll(bottleneck);
    return summary;
  }

  /** A section's heading and body up to the next heading of any level, trailing blanks dropped. */
  private static List<String> section(List<String> lines, String heading) {
    int start = lines.indexOf(heading);
    if (start < 0) {
      return List.of();
    }
    List<String> body = new ArrayList<>();
    body.add(heading);
    for (int i = start + 1; i < lines.size() && !lines.get(i).startsWith("#"); i++) {
      body.add(lines.get(i));
    }
    while (body.size() > 1 && body.get(body.size() - 1).isBlank()) {
      body.remove(body.size() - 1);
    }
    return body;
  }
}
