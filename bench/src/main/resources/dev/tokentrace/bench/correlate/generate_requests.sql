-- bench/generate_requests: ? joined requests (bound four times, once per statement), written
-- straight into the tables in the shape the sink (request_arrived, request_timing, engine_stats)
-- and the client loader (client_timing) write them: one vLLM-like instance seen through its text
-- log (arrivals, stats every 10 s) and its OTLP spans (timings), one CSV client run at four
-- concurrency levels. A request starts every 10 ms. Values come from hash(i), so a size always
-- gives the same tables. Components: network 1-8 ms, queue 0-49 ms, prefill 20-219 ms, decode
-- (output tokens - 1) x 8-15 ms, so every request joins and is attributed (no suspects).
CREATE OR REPLACE TEMP TABLE bench_requests AS
SELECT i,
       'req-' || i AS request_key,
       TIMESTAMP '2026-01-05 08:00:00' + to_milliseconds(i * 10) AS start_ts,
       [1, 4, 8, 16][1 + CAST(floor(i * 4 / greatest(n, 1)) AS INTEGER)] AS concurrency,
       CAST(1 + hash(i) % 8 AS DOUBLE) AS network_ms,
       CAST(hash(i + 1) % 50 AS DOUBLE) AS queue_ms,
       CAST(20 + hash(i + 2) % 200 AS DOUBLE) AS prefill_ms,
       CAST(16 + hash(i + 3) % 500 AS INTEGER) AS output_tokens,
       CAST(8 + hash(i + 4) % 8 AS DOUBLE) AS tpot_ms,
       CAST(100 + hash(i + 5) % 4000 AS INTEGER) AS prompt_tokens
FROM (SELECT range AS i, CAST(? AS BIGINT) AS n FROM range(?));

INSERT INTO client_timing BY NAME
SELECT 'bench' AS run_id, 'csv' AS client_format, 'bench/client_timings.csv' AS source_path,
       i + 2 AS source_line, request_key AS request_id, request_key, start_ts,
       network_ms / 2 + queue_ms + prefill_ms AS ttft_ms,
       network_ms + queue_ms + prefill_ms + (output_tokens - 1) * tpot_ms AS e2e_ms,
       output_tokens, prompt_tokens, concurrency, 'ok' AS status, false AS warmup,
       'sent' AS id_kind
FROM bench_requests;

INSERT INTO request_arrived BY NAME
SELECT 'vllm' AS engine, 'bench' AS instance,
       date_trunc('second', start_ts + to_milliseconds(network_ms / 2)) AS ts,
       'bench/server.log' AS source_path, 2 * i + 1 AS source_line, 300 * i AS source_offset,
       'chatcmpl-' || request_key AS request_id, request_key, prompt_tokens, 1024 AS max_tokens
FROM bench_requests;

INSERT INTO request_timing BY NAME
SELECT 'vllm' AS engine, 'bench' AS instance,
       start_ts + to_milliseconds(network_ms / 2 + queue_ms + prefill_ms
                                  + (output_tokens - 1) * tpot_ms) AS ts,
       'bench/otlp.jsonl' AS source_path, i + 1 AS source_line, 900 * i AS source_offset,
       'chatcmpl-' || request_key AS request_id, request_key,
       start_ts + to_milliseconds(network_ms / 2) AS arrival_ts,
       queue_ms, prefill_ms, (output_tokens - 1) * tpot_ms AS decode_ms,
       queue_ms + prefill_ms AS server_ttft_ms,
       queue_ms + prefill_ms + (output_tokens - 1) * tpot_ms AS e2e_ms,
       prompt_tokens, output_tokens, 0 AS cached_tokens, 'stop' AS finish_reason,
       'otlp' AS source_kind
FROM bench_requests;

INSERT INTO engine_stats BY NAME
SELECT 'vllm' AS engine, 'bench' AS instance,
       TIMESTAMP '2026-01-05 08:00:00' + to_seconds(10 * s) AS ts,
       'bench/server.log' AS source_path, s AS source_line, 0 AS source_offset,
       'Engine 000' AS rank, 812.4 AS prompt_tps, 95.0 AS gen_tps,
       CAST(1 + hash(s) % 16 AS INTEGER) AS running, CAST(hash(s + 1) % 4 AS INTEGER) AS waiting,
       CAST(hash(s + 2) % 900 AS DOUBLE) / 10 AS kv_usage_pct, 0.0 AS prefix_hit_pct
FROM range(CAST(floor(CAST(? AS BIGINT) / 1000) AS BIGINT) + 1) AS t(s);

DROP TABLE bench_requests;
