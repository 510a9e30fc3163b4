-- queries/slowest_requests: which requests were slowest end to end, where did their time go, and what did the server look like when they arrived?
-- params:  :limit (INTEGER, default 10), :run_id (VARCHAR, default every run)
-- returns: request_key, run_id, concurrency, engine, instance, client_ttft_ms, client_e2e_ms,
--          client_queue_ms, network_ms, queue_ms, prefill_ms, decode_ms, dominant, output_tokens,
--          join_status, included, exclusion, mlt_ms, prompt_tokens, aligned_start_ts, stats_ts,
--          stats_offset_ms, running, waiting, kv_usage_pct, batch_ts, batch_offset_ms, batch_size,
--          batch_queued
--
-- Population: client requests with status ok that are not warm-up, attributed or not, slowest
-- client_e2e_ms first. Reads request_attribution: run the attribution first.
-- Server state: on the request's instance, the engine_stats snapshot (running, waiting, KV cache use)
-- and the batch_step (batch size, queued) nearest in time to the request's start on the server clock
-- (aligned_start_ts: the client start plus the run's clock offset, see attribution/clock_offsets),
-- before or after it; *_offset_ms = snapshot time - aligned start (negative: before). vLLM
-- writes its stats line every 5-10 s, so read the offset before reading much into one snapshot
-- (queries/queue_timeline shows all of them around a request). Unpaired requests have no instance
-- and no snapshot.
WITH top AS (
    -- ORDER BY ... LIMIT is a top-N (a heap of :limit rows); a row_number() over every request
    -- sorted all of them with every column (103 s at 10 M requests on a loaded 2-core machine)
    SELECT *
    FROM request_attribution
    WHERE status = 'ok' AND NOT warmup
      AND (CAST(:run_id AS VARCHAR) IS NULL OR run_id = CAST(:run_id AS VARCHAR))
    ORDER BY client_e2e_ms DESC NULLS LAST, request_key, client_source_path, client_source_line
    LIMIT coalesce(CAST(:limit AS BIGINT), 10)
),
slow AS (
    SELECT row_number() OVER (ORDER BY client_e2e_ms DESC NULLS LAST, request_key,
                                       client_source_path, client_source_line) AS slow_rank,
           *
    FROM top
),
placed AS (
    SELECT slow_rank, instance, aligned_start_ts
    FROM slow
    WHERE instance IS NOT NULL AND aligned_start_ts IS NOT NULL
),
stats AS (
    SELECT instance, ts, running, waiting, kv_usage_pct FROM engine_stats WHERE ts IS NOT NULL
),
batches AS (
    SELECT instance, ts, batch_size, queued FROM batch_step
    WHERE ts IS NOT NULL AND batch_size IS NOT NULL
),
stats_near AS (
    SELECT slow_rank, ts, running, waiting, kv_usage_pct,
           epoch_ms(ts) - epoch_ms(aligned_start_ts) AS offset_ms
    FROM (SELECT p.slow_rank, p.aligned_start_ts, s.ts, s.running, s.waiting, s.kv_usage_pct
          FROM placed p ASOF JOIN stats s ON s.instance = p.instance AND s.ts <= p.aligned_start_ts
          UNION ALL
          SELECT p.slow_rank, p.aligned_start_ts, s.ts, s.running, s.waiting, s.kv_usage_pct
          FROM placed p ASOF JOIN stats s ON s.instance = p.instance AND s.ts >= p.aligned_start_ts)
    QUALIFY row_number() OVER (PARTITION BY slow_rank
                               ORDER BY abs(epoch_ms(ts) - epoch_ms(aligned_start_ts)), ts) = 1
),
batch_near AS (
    SELECT slow_rank, ts, batch_size, queued,
           epoch_ms(ts) - epoch_ms(aligned_start_ts) AS offset_ms
    FROM (SELECT p.slow_rank, p.aligned_start_ts, b.ts, b.batch_size, b.queued
          FROM placed p ASOF JOIN batches b ON b.instance = p.instance AND b.ts <= p.aligned_start_ts
          UNION ALL
          SELECT p.slow_rank, p.aligned_start_ts, b.ts, b.batch_size, b.queued
          FROM placed p ASOF JOIN batches b ON b.instance = p.instance AND b.ts >= p.aligned_start_ts)
    QUALIFY row_number() OVER (PARTITION BY slow_rank
                               ORDER BY abs(epoch_ms(ts) - epoch_ms(aligned_start_ts)), ts) = 1
)
SELECT r.request_key, r.run_id, r.concurrency, r.engine, r.instance, r.client_ttft_ms,
       r.client_e2e_ms, r.client_queue_ms, r.network_ms, r.queue_ms, r.prefill_ms, r.decode_ms,
       r.dominant, r.output_tokens, r.join_status, r.included, r.exclusion, r.mlt_ms,
       r.prompt_tokens, r.aligned_start_ts, s.ts AS stats_ts, s.offset_ms AS stats_offset_ms,
       s.running, s.waiting, s.kv_usage_pct, b.ts AS batch_ts, b.offset_ms AS batch_offset_ms,
       b.batch_size, b.queued AS batch_queued
FROM slow r
LEFT JOIN stats_near s ON s.slow_rank = r.slow_rank
LEFT JOIN batch_near b ON b.slow_rank = r.slow_rank
ORDER BY r.slow_rank
