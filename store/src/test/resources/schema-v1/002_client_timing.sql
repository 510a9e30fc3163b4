-- schema/002_client_timing: black-box timings, one row per request as a benchmark client saw it.
-- Written by `tokentrace clients`. request_key uses the same normalization as the server side
-- (RequestKeys.normalize). start_ts is when the workload issued the request (before any wait in the
-- client's own queue, so ttft_ms and e2e_ms include client_queue_ms), UTC, where the file has
-- wall-clock time; NULL for monotonic-only files (vLLM bench start_times), whose raw value is kept
-- in start_mono_s. status is 'ok' or the client's error; failed rows are kept, never dropped.
-- client_format: csv | aiperf | vllm-bench | guidellm | genai-perf | sglang-bench | llmperf. For JSON
-- formats source_line is the request's ordinal in the file (a compact JSON file is one text line).
-- id_kind says whether the server can know request_id: sent (X-Request-Id), response (the server's
-- response id), rebuilt (vLLM bench prefix + index), local (client-only or made up: joined only by
-- --match heuristic); NULL (rows of older versions) = sent. ack_ms and http_*_ms are the client's
-- HTTP phases where recorded (AIPerf): server acknowledgement, DNS + connect, send, wait (TTFB),
-- receive. chunks: streamed chunks that carried content; itl_max_ms: the longest gap between them.

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
    warmup           BOOLEAN   NOT NULL DEFAULT false,
    id_kind          VARCHAR,
    ack_ms           DOUBLE,
    http_connect_ms  DOUBLE,
    http_send_ms     DOUBLE,
    http_wait_ms     DOUBLE,
    http_receive_ms  DOUBLE,
    chunks           INTEGER,
    itl_max_ms       DOUBLE
);

-- files created before these columns existed get them, in the same order (the Appender is positional)
ALTER TABLE client_timing ADD COLUMN IF NOT EXISTS id_kind VARCHAR;
ALTER TABLE client_timing ADD COLUMN IF NOT EXISTS ack_ms DOUBLE;
ALTER TABLE client_timing ADD COLUMN IF NOT EXISTS http_connect_ms DOUBLE;
ALTER TABLE client_timing ADD COLUMN IF NOT EXISTS http_send_ms DOUBLE;
ALTER TABLE client_timing ADD COLUMN IF NOT EXISTS http_wait_ms DOUBLE;
ALTER TABLE client_timing ADD COLUMN IF NOT EXISTS http_receive_ms DOUBLE;
ALTER TABLE client_timing ADD COLUMN IF NOT EXISTS chunks INTEGER;
ALTER TABLE client_timing ADD COLUMN IF NOT EXISTS itl_max_ms DOUBLE;
