package dev.tokentrace.correlate.attribution;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.store.rows.DataQuality;

/** What an attribution run did: its run id and the data-quality counts after it. */
public record AttributionResult(String runId, DataQuality dataQuality) {
  public AttributionResult {
    requireNonNull(runId, "runId is null");
    requireNonNull(dataQuality, "dataQuality is null");
  }
}
