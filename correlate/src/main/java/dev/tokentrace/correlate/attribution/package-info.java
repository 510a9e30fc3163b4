/**
 * Latency attribution: {@link dev.tokentrace.correlate.attribution.Attributor} runs the SQL of
 * {@code sql/attribution/} that joins client and server records and splits each request into
 * network, client queueing, server queueing, prefill and decode (Java orchestrates, SQL computes),
 * and {@link dev.tokentrace.correlate.attribution.AttributionCsvWriter} writes the per-request CSV.
 * Two searches are Java because they are not formulas: {@code HeuristicMatcher} (one-to-one
 * assignment) and {@code SteadyClockAligner} (the offset of a steady server clock from the time
 * series alone). Must not import ingest or Kafka.
 */
@NullMarked
package dev.tokentrace.correlate.attribution;

import org.jspecify.annotations.NullMarked;
