package dev.tokentrace.report.model;

import static java.util.Objects.requireNonNull;

/**
 * The load one client run put on the servers, as the client recorded it (warm-up excluded):
 * requests, prompt and output lengths, concurrency ({@code text}, from report/environment_load).
 */
public record RunLoad(String runId, Text text) {
  public RunLoad {
    requireNonNull(runId, "runId is null");
    requireNonNull(text, "text is null");
  }
}
