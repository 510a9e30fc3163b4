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
    aligned_start_ts      TIMESTAMP
);

-- files created before these columns existed get them (request_attribution is written BY NAME)
ALTER TABLE request_attribution ADD COLUMN IF NOT EXISTS id_kind VARCHAR;
ALTER TABLE request_attribution ADD COLUMN IF NOT EXISTS match_method VARCHAR;
ALTER TABLE request_attribution ADD COLUMN IF NOT EXISTS match_cost DOUBLE;
ALTER TABLE request_attribution ADD COLUMN IF NOT EXISTS match_candidates INTEGER;
ALTER TABLE request_attribution ADD COLUMN IF NOT EXISTS duplicate_reason VARCHAR;
ALTER TABLE request_attribution ADD COLUMN IF NOT EXISTS clock_offset_ms DOUBLE;
ALTER TABLE request_attribution ADD COLUMN IF NOT EXISTS aligned_start_ts TIMESTAMP;

-- clock_offsets: per client run, server instance and client clock (wall | monotonic), the offset that
-- puts client times on the server's clock, estimated by sql/attribution/clock_offsets.sql from requests
-- paired by ID: offset_ms = median of (server arrival - client send) after dropping pairs more than
-- a few MADs from the median; spread_ms = 1.4826 * MAD of the pairs kept (a robust standard
-- deviation). It includes the one-way network delay. zone_shift_minutes: the offset is a whole number
-- of quarter hours (a log time zone or date set wrong). flag: zone, unsynced, noisy, few_pairs.
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
    flag                VARCHAR
);

-- request_matches: client rows paired with a server request without a shared ID (--match heuristic),
-- one to one. cost: lower is closer (time difference over the window plus token-count differences);
-- time_diff_ms: server arrival minus the client's aligned send time (NULL: matched on tokens and
-- durations only); candidates: server requests the client row could have been.
CREATE TABLE IF NOT EXISTS request_matches (
    run_id              VARCHAR   NOT NULL,
    client_source_path  VARCHAR   NOT NULL,
    client_source_line  BIGINT    NOT NULL,
    server_request_key  VARCHAR   NOT NULL,
    method              VARCHAR   NOT NULL,
    cost                DOUBLE    NOT NULL,
    time_diff_ms        DOUBLE,
    candidates          INTEGER   NOT NULL
);
