-- schema/005_attribution: per-request latency attribution, derived from client_timing and the server
-- tables by sql/attribution/per_request.sql (run by `tokentrace correlate` and `report`, which replace
-- the whole table). One row per client_timing row, matched or not; formulas in per_request.sql's header.
-- join_status: matched | arrival_only (text-log arrival only, no durations) | duplicate (a key with more
-- than one client row or server record: never attributed) | client_only (no server record).
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
    exclusion             VARCHAR
);
