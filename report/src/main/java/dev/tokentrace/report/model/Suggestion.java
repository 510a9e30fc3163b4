package dev.tokentrace.report.model;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * One actionable suggestion (the seed's 优化建议): the lever it pulls ({@code topic}: scheduling, batch
 * size, chunked prefill, precision, scale-out, ...), the sentence with the evidence it rests on,
 * and the runs that evidence comes from.
 */
public record Suggestion(String topic, Text text, List<String> runs) {
  public Suggestion {
    requireNonNull(topic, "topic is null");
    requireNonNull(text, "text is null");
    runs = List.copyOf(runs);
  }
}
