package dev.tokentrace.correlate.attribution;

import org.jspecify.annotations.Nullable;

/**
 * One client request after attribution: the main columns of {@code request_attribution}
 * (schema/005_attribution; formulas in sql/attribution/per_request.sql). Components are null when
 * the request was not matched to a server record with durations. {@code retried}: the server saw
 * more than one attempt (null without a server record); {@code attemptRule}: how the attributed
 * attempt was chosen (only_completed, latest_arrival), null when there was no choice.
 */
public record RequestAttribution(
    String runId,
    String requestId,
    String requestKey,
    long clientSourceLine,
    @Nullable Integer concurrency,
    String status,
    boolean warmup,
    String joinStatus,
    @Nullable String confidence,
    int clientRows,
    int serverRows,
    @Nullable String engine,
    @Nullable String instance,
    @Nullable String serverSource,
    @Nullable Double clientTtftMs,
    @Nullable Double clientE2eMs,
    @Nullable Double clientQueueMs,
    @Nullable Double networkTtftMs,
    @Nullable Double networkMs,
    @Nullable Double queueMs,
    @Nullable Double prefillMs,
    @Nullable Double decodeMs,
    boolean serverDerived,
    @Nullable Double mltMs,
    @Nullable Double tpotMs,
    @Nullable String dominant,
    boolean suspect,
    @Nullable String suspectReason,
    boolean tokenMismatch,
    boolean included,
    @Nullable String exclusion,
    @Nullable String idKind,
    @Nullable String matchMethod,
    @Nullable Integer matchCandidates,
    @Nullable String duplicateReason,
    @Nullable Double clockOffsetMs,
    @Nullable Boolean retried,
    @Nullable String attemptRule) {}
