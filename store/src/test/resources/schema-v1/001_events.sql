-- schema/001_events: one table per event type (docs/design.md#events). Written by the DuckDB sink.
-- Columns mirror the event JSON field for field; the envelope is flattened into
-- engine, instance, ts, source_path, source_line, source_offset. Timestamps are UTC (TIMESTAMP),
-- durations DOUBLE milliseconds (*_ms), counts INTEGER. Nullable where an engine does not log a value.

CREATE TABLE IF NOT EXISTS request_arrived (
    engine          VARCHAR   NOT NULL,
    instance        VARCHAR   NOT NULL,
    ts              TIMESTAMP,
    source_path     VARCHAR   NOT NULL,
    source_line     BIGINT    NOT NULL,
    source_offset   BIGINT    NOT NULL,
    request_id      VARCHAR   NOT NULL,
    request_key     VARCHAR   NOT NULL,
    prompt_tokens   INTEGER,
    max_tokens      INTEGER
);

CREATE TABLE IF NOT EXISTS request_timing (
    engine          VARCHAR   NOT NULL,
    instance        VARCHAR   NOT NULL,
    ts              TIMESTAMP,
    source_path     VARCHAR   NOT NULL,
    source_line     BIGINT    NOT NULL,
    source_offset   BIGINT    NOT NULL,
    request_id      VARCHAR   NOT NULL,
    request_key     VARCHAR   NOT NULL,
    arrival_ts      TIMESTAMP,
    queue_ms        DOUBLE,
    prefill_ms      DOUBLE,
    decode_ms       DOUBLE,
    server_ttft_ms  DOUBLE,
    e2e_ms          DOUBLE,
    prompt_tokens   INTEGER,
    output_tokens   INTEGER,
    cached_tokens   INTEGER,
    finish_reason   VARCHAR,
    source_kind     VARCHAR   NOT NULL,
    arrival_mono_s  DOUBLE
);
-- arrival_mono_s: the server's steady-clock arrival (s) where the source has no wall clock
-- (TensorRT-LLM perf metrics); correlate maps it onto the client clock with an estimated offset.
-- Added after the first release: files created before get the column here.
ALTER TABLE request_timing ADD COLUMN IF NOT EXISTS arrival_mono_s DOUBLE;

CREATE TABLE IF NOT EXISTS request_finished (
    engine          VARCHAR   NOT NULL,
    instance        VARCHAR   NOT NULL,
    ts              TIMESTAMP,
    source_path     VARCHAR   NOT NULL,
    source_line     BIGINT    NOT NULL,
    source_offset   BIGINT    NOT NULL,
    request_id      VARCHAR   NOT NULL,
    request_key     VARCHAR   NOT NULL,
    output_tokens   INTEGER,
    finish_reason   VARCHAR
);

CREATE TABLE IF NOT EXISTS request_aborted (
    engine          VARCHAR   NOT NULL,
    instance        VARCHAR   NOT NULL,
    ts              TIMESTAMP,
    source_path     VARCHAR   NOT NULL,
    source_line     BIGINT    NOT NULL,
    source_offset   BIGINT    NOT NULL,
    request_id      VARCHAR   NOT NULL,
    request_key     VARCHAR   NOT NULL,
    reason          VARCHAR
);

CREATE TABLE IF NOT EXISTS engine_stats (
    engine          VARCHAR   NOT NULL,
    instance        VARCHAR   NOT NULL,
    ts              TIMESTAMP,
    source_path     VARCHAR   NOT NULL,
    source_line     BIGINT    NOT NULL,
    source_offset   BIGINT    NOT NULL,
    rank            VARCHAR,
    interval_s      DOUBLE,
    prompt_tps      DOUBLE,
    gen_tps         DOUBLE,
    running         INTEGER,
    waiting         INTEGER,
    swapped         INTEGER,
    kv_usage_pct    DOUBLE,
    prefix_hit_pct  DOUBLE,
    preemptions     INTEGER
);

CREATE TABLE IF NOT EXISTS batch_step (
    engine          VARCHAR   NOT NULL,
    instance        VARCHAR   NOT NULL,
    ts              TIMESTAMP,
    source_path     VARCHAR   NOT NULL,
    source_line     BIGINT    NOT NULL,
    source_offset   BIGINT    NOT NULL,
    rank            VARCHAR,
    iteration       BIGINT,
    phase           VARCHAR   NOT NULL,
    batch_size      INTEGER,
    new_seqs        INTEGER,
    new_tokens      INTEGER,
    cached_tokens   INTEGER,
    queued          INTEGER,
    token_usage     DOUBLE,
    throughput_tps  DOUBLE,
    step_ms         DOUBLE,
    step_ms_derived BOOLEAN   NOT NULL,
    ctx_requests    INTEGER,
    gen_requests    INTEGER
);

CREATE TABLE IF NOT EXISTS server_notice (
    engine          VARCHAR   NOT NULL,
    instance        VARCHAR   NOT NULL,
    ts              TIMESTAMP,
    source_path     VARCHAR   NOT NULL,
    source_line     BIGINT    NOT NULL,
    source_offset   BIGINT    NOT NULL,
    level           VARCHAR   NOT NULL,
    kind            VARCHAR   NOT NULL,
    message         VARCHAR   NOT NULL
);
