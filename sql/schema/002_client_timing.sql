-- schema/002_client_timing: black-box timings, one row per request as a benchmark client saw it.
-- Written by `tokentrace clients`. request_key uses the same normalization as the server side
-- (RequestKeys.normalize). start_ts is when the workload issued the request (before any wait in the
-- client's own queue, so ttft_ms and e2e_ms include client_queue_ms), UTC, where the file has
-- wall-clock time; NULL for monotonic-only files (vLLM bench start_times), whose raw value is kept
-- in start_mono_s. status is 'ok' or the client's error; failed rows are kept, never dropped.

CREATE TABLE IF NOT EXISTS client_timing (
    run_id           VARCHAR   NOT NULL,
    client_format    VARCHAR   NOT NULL,
    source_path      VARCHAR   NOT NULL,
    source_line      BIGINT    NOT NULL,
    request_id       VARCHAR   NOT NULL,
    request_key      VARCHAR   NOT NULL,
    start_ts         TIMESTAMP,
    start_mono_s     DOUBLE,
    ttft_ms          DOUBLE,
    e2e_ms           DOUBLE,
    output_tokens    INTEGER,
    client_queue_ms  DOUBLE,
    prompt_tokens    INTEGER,
    concurrency      INTEGER,
    status           VARCHAR   NOT NULL,
    warmup           BOOLEAN   NOT NULL DEFAULT false
);
