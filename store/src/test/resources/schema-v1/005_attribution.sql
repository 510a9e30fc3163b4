-- schema/005_attribution: per-request latency attribution, derived from client_timing and the server
-- tables by sql/attribution/per_request.sql (run by `tokentrace correlate` and `report`, which replace
-- the whole table). One row per client_timing row, matched or not; formulas in per_request.sql's header.
-- join_status: matched | heuristic (paired by --match heuristic: time window and token counts, not by
-- ID; confidence 'heuristic') | arrival_only (text-log arrival only, no durations) | duplicate (a key
-- with more than one client row, server record or server arrival: never attributed; duplicate_reason
-- says which) | client_only (no server record). match_method: id | heuristic (NULL when unmatched).
-- clock_offset_ms: the run's server-minus-client clock offset applied (clock_offsets; NULL: none
-- estimated); aligned_start_ts: the client's start on the server's clock, for placing the request
-- against batch and queue snapshots.
-- dominant: network | client_queue | queue | prefill | decode. included: counted in aggregates;
-- otherwise exclusion says why (client error, warm-up, no server record, duplicate key, ...).
-- retried: the server saw more than one attempt of this request (several arrivals, or an aborted
-- attempt besides a completed one); when it is attributed anyway, attempt_rule says how the one
-- record the client's final timing belongs to was chosen: only_completed (the one attempt that was
-- not aborted) | latest_arrival (the last attempt to arrive by the client's final send + the window).
-- NULL in files written before these columns existed.

CREATE TABLE IF NOT EXISTS request_attribution (
    run_id                VARCHAR   NOT NULL,
    client_format         VARCHAR   NOT NULL,
    client_source_path    VARCHAR   NOT NULL,
    client_source_line    BIGINT    NOT NULL,
    request_id            VARCHAR   NOT NULL,
    request_key           VARCHAR   NOT NULL,
    start_ts              TIMESTAMP,
    concurrency           INTEGER,
    status                VARCHAR   NOT NULL,
    warmup                BOOLEAN   NOT NULL,
    join_status           VARCHAR   NOT NULL,
    confidence            VARCHAR,
    client_rows           INTEGER   NOT NULL,
    server_rows           INTEGER   NOT NULL,
    arrival_rows          INTEGER   NOT NULL,
    engine                VARCHAR,
    instance              VARCHAR,
    server_source         VARCHAR,
    server_request_id     VARCHAR,
    server_source_path    VARCHAR,
    server_source_line    BIGINT,
    server_arrival_ts     TIMESTAMP,
    prompt_tokens         INTEGER,
    output_tokens         INTEGER,
    server_output_tokens  INTEGER,
    token_mismatch        BOOLEAN   NOT NULL,
    client_ttft_ms        DOUBLE,
    client_e2e_ms         DOUBLE,
    client_queue_ms       DOUBLE,
    client_queue_recorded BOOLEAN   NOT NULL,
    network_ttft_ms       DOUBLE,
    network_ms            DOUBLE,
    queue_ms              DOUBLE,
    prefill_ms            DOUBLE,
    decode_ms             DOUBLE,
    server_derived        BOOLEAN   NOT NULL,
    server_ttft_ms        DOUBLE,
    server_e2e_ms         DOUBLE,
    mlt_ms                DOUBLE,
    tpot_ms               DOUBLE,
    dominant              VARCHAR,
    suspect               BOOLEAN   NOT NULL,
    suspect_reason        VARCHAR,
    included              BOOLEAN   NOT NULL,
    exclusion             VARCHAR,
    id_kind               VARCHAR,
    match_method          VARCHAR,
    match_cost            DOUBLE,
    match_candidates      INTEGER,
    duplicate_reason      VARCHAR,
    clock_offset_ms       DOUBLE,
    aligned_start_ts      TIMESTAMP,
    retried               BOOLEAN,
    attempt_rule          VARCHAR
);

-- files created before these columns existed get them (request_attribution is written BY NAME)
ALTER TABLE request_attribution ADD COLUMN IF NOT EXISTS id_kind VARCHAR;
ALTER TABLE request_attribution ADD COLUMN IF NOT EXISTS match_method VARCHAR;
ALTER TABLE request_attribution ADD COLUMN IF NOT EXISTS match_cost DOUBLE;
ALTER TABLE request_attribution ADD COLUMN IF NOT EXISTS match_candidates INTEGER;
ALTER TABLE request_attribution ADD COLUMN IF NOT EXISTS duplicate_reason VARCHAR;
ALTER TABLE request_attribution ADD COLUMN IF NOT EXISTS clock_offset_ms DOUBLE;
ALTER TABLE request_attribution ADD COLUMN IF NOT EXISTS aligned_start_ts TIMESTAMP;
ALTER TABLE request_attribution ADD COLUMN IF NOT EXISTS retried BOOLEAN;
ALTER TABLE request_attribution ADD COLUMN IF NOT EXISTS attempt_rule VARCHAR;

-- clock_offsets: per client run, server instance and client clock (wall | monotonic), the offset that
-- puts client times on the server's clock: offset_ms = median of (server arrival - client send) after
-- dropping pairs more than a few MADs from the median; spread_ms = 1.4826 * MAD of the pairs kept (a
-- robust standard deviation). It includes the one-way network delay. method: id_pairs (requests
-- paired by ID, sql/attribution/clock_offsets.sql; server_clock wall) | time_series (no ID pairs:
-- the server's steady clock, TensorRT-LLM perf metrics, aligned with the client's send times alone
-- by SteadyClockAligner; server_clock steady, pairs = sends matched to an arrival). NULL method:
-- written before the column existed (id_pairs). client_requests / server_requests: the series
-- lengths a time_series estimate aligned; fit_ms: the median distance from a client send to the
-- nearest server arrival at the chosen offset; runner_up_fit_ms: the same at the best clearly
-- different offset or instance (NULL: none). zone_shift_minutes: the offset is a whole number of
-- quarter hours (a log time zone or date set wrong). flag: zone, unsynced, noisy, few_pairs,
-- ambiguous (time_series: an alternative fits nearly as well; not used for matching).
CREATE TABLE IF NOT EXISTS clock_offsets (
    run_id              VARCHAR   NOT NULL,
    instance            VARCHAR   NOT NULL,
    engine              VARCHAR,
    client_clock        VARCHAR   NOT NULL,
    server_source       VARCHAR   NOT NULL,
    pairs               INTEGER   NOT NULL,
    used_pairs          INTEGER   NOT NULL,
    outliers            INTEGER   NOT NULL,
    offset_ms           DOUBLE    NOT NULL,
    spread_ms           DOUBLE    NOT NULL,
    min_ms              DOUBLE    NOT NULL,
    max_ms              DOUBLE    NOT NULL,
    zone_shift_minutes  INTEGER,
    flag                VARCHAR,
    method              VARCHAR,
    server_clock        VARCHAR,
    client_requests     INTEGER,
    server_requests     INTEGER,
    fit_ms              DOUBLE,
    runner_up_fit_ms    DOUBLE
);

-- files created before these columns existed get them, in the same order (the Appender is positional)
ALTER TABLE clock_offsets ADD COLUMN IF NOT EXISTS method VARCHAR;
ALTER TABLE clock_offsets ADD COLUMN IF NOT EXISTS server_clock VARCHAR;
ALTER TABLE clock_offsets ADD COLUMN IF NOT EXISTS client_requests INTEGER;
ALTER TABLE clock_offsets ADD COLUMN IF NOT EXISTS server_requests INTEGER;
ALTER TABLE clock_offsets ADD COLUMN IF NOT EXISTS fit_ms DOUBLE;
ALTER TABLE clock_offsets ADD COLUMN IF NOT EXISTS runner_up_fit_ms DOUBLE;

-- request_matches: client rows paired with a server request without a shared ID (--match heuristic),
-- one to one. cost: lower is closer (time difference over the window plus token-count differences);
-- time_diff_ms: server arrival minus the client's aligned send time (NULL: matched on tokens and
-- durations only); candidates: server requests the client row could have been. server_instance: the
-- instance of the server request; a key the client never sent is the engine's own (a TensorRT-LLM
-- counter repeats on every instance), so the pair names the request by instance and key. NULL in
-- files written before the column existed.
CREATE TABLE IF NOT EXISTS request_matches (
    run_id              VARCHAR   NOT NULL,
    client_source_path  VARCHAR   NOT NULL,
    client_source_line  BIGINT    NOT NULL,
    server_request_key  VARCHAR   NOT NULL,
    method              VARCHAR   NOT NULL,
    cost                DOUBLE    NOT NULL,
    time_diff_ms        DOUBLE,
    candidates          INTEGER   NOT NULL,
    server_instance     VARCHAR
);

ALTER TABLE request_matches ADD COLUMN IF NOT EXISTS server_instance VARCHAR;

-- attribution_state: the settings and the input fingerprint (attribution/inputs) of the attribution
-- now in request_attribution, one row, replaced in the same transaction as the attribution. `report`
-- reuses that attribution when both match its own (recomputing 10 M requests takes minutes), and its
-- data-quality counts (attribution/data_quality as JSON, written just after; NULL until then).
CREATE TABLE IF NOT EXISTS attribution_state (
    run_id   VARCHAR  NOT NULL,
    params   VARCHAR  NOT NULL,
    inputs   VARCHAR  NOT NULL,
    quality  VARCHAR
);
