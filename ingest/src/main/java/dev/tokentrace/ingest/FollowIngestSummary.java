package dev.tokentrace.ingest;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.ingest.follow.FollowSummary;
import dev.tokentrace.ingest.sink.SinkSummary;

/** What {@link Ingest#follow} did: the follower's summary and what the sink wrote. */
public record FollowIngestSummary(FollowSummary shipped, SinkSummary sunk) {
  public FollowIngestSummary {
    requireNonNull(shipped, "shipped is null");
    requireNonNull(sunk, "sunk is null");
  }
}
