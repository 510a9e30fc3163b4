-- queries/mlt_vs_context: is decode memory-bandwidth bound? ITL (mlt_* columns) and server TPOT by prompt-length bucket, per run and concurrency level, with the slope of ITL over context length.
-- params:  :run_id (VARCHAR, default every run), :bucket_tokens (INTEGER, default 0: power-of-two
--          buckets; N > 0: buckets N tokens wide), :threshold_pct (DOUBLE, default 20),
--          :min_r2 (DOUBLE, default 0.5), :min_requests (INTEGER, default 8)
-- returns: run_id, concurrency, bucket_lo, bucket_hi, requests, prompt_p50, mlt_p50_ms, mlt_p95_ms,
--          tpot_p50_ms, tpot_p95_ms, series_requests, prompt_p10, prompt_p90,
--          mlt_slope_ms_per_ktoken, mlt_intercept_ms, mlt_r2, mlt_rise_pct,
--          tpot_slope_ms_per_ktoken, decode_bandwidth_bound
--
-- Population: client requests with status ok, not warm-up, with an MLT (more than one output token)
-- and a prompt length (the client's, else the matched server record's). MLT = (E2E - FTL) /
-- (output tokens - 1); TPOT = server decode / (output tokens - 1), from attributed requests only.
-- A bucket holds prompts in [bucket_lo, bucket_hi). The series is one run at one concurrency level:
-- MLT also grows with the batch, so levels are never pooled.
-- Per series, a least-squares line of MLT over prompt tokens: mlt_slope_ms_per_ktoken (ms per 1000
-- prompt tokens), mlt_r2 its fit; mlt_rise_pct = how much the line rises from the series' P10 prompt
-- to its P90 prompt, in percent of its value at P10. decode_bandwidth_bound = at least :min_requests
-- requests, mlt_r2 >= :min_r2 and mlt_rise_pct > :threshold_pct: MLT grows with context, the seed's
-- sign that decode has exhausted memory bandwidth (reduce the KV cache footprint, continuous batching).
WITH settings AS (
    SELECT CAST(:run_id AS VARCHAR) AS run_id,
           coalesce(CAST(:bucket_tokens AS INTEGER), 0) AS bucket_tokens,
           coalesce(CAST(:threshold_pct AS DOUBLE), 20.0) AS threshold_pct,
           coalesce(CAST(:min_r2 AS DOUBLE), 0.5) AS min_r2,
           coalesce(CAST(:min_requests AS INTEGER), 8) AS min_requests
),
population AS (
    -- prompt tokens from the attribution where it has them; only the other requests are joined
    -- back to their server record for them (a join of every request: tens of seconds at 10 M)
    SELECT a.run_id, a.concurrency, a.mlt_ms,
           CASE WHEN a.included THEN a.tpot_ms END AS tpot_ms,
           CAST(a.prompt_tokens AS DOUBLE) AS prompt
    FROM request_attribution a
    CROSS JOIN settings s
    WHERE a.status = 'ok' AND NOT a.warmup AND a.mlt_ms IS NOT NULL
      AND a.prompt_tokens > 0
      AND (s.run_id IS NULL OR a.run_id = s.run_id)
    UNION ALL
    SELECT a.run_id, a.concurrency, a.mlt_ms,
           CASE WHEN a.included THEN a.tpot_ms END AS tpot_ms,
           CAST(t.prompt_tokens AS DOUBLE) AS prompt
    FROM request_attribution a
    CROSS JOIN settings s
    JOIN request_timing t
      ON t.request_id = a.server_request_id AND t.source_path = a.server_source_path
     AND t.source_line = a.server_source_line AND t.instance = a.instance
    WHERE a.status = 'ok' AND NOT a.warmup AND a.mlt_ms IS NOT NULL
      AND a.prompt_tokens IS NULL AND t.prompt_tokens > 0
      AND (s.run_id IS NULL OR a.run_id = s.run_id)
),
bucketed AS (
    SELECT p.*,
           CASE WHEN s.bucket_tokens > 0 THEN CAST(floor(prompt / s.bucket_tokens) AS BIGINT) * s.bucket_tokens
                ELSE CAST(pow(2, floor(log2(prompt))) AS BIGINT) END AS bucket_lo,
           s.bucket_tokens
    FROM population p
    CROSS JOIN settings s
),
series AS (
    SELECT run_id, concurrency,
           count(*) AS series_requests,
           -- one list quantile: each scalar quantile_cont keeps its own copy of every value
           quantile_cont(prompt, [0.10, 0.90]) AS prompt_p10_p90,
           1000 * regr_slope(mlt_ms, prompt) AS mlt_slope_ms_per_ktoken,
           regr_intercept(mlt_ms, prompt) AS mlt_intercept_ms,
           regr_r2(mlt_ms, prompt) AS mlt_r2,
           1000 * regr_slope(tpot_ms, prompt) AS tpot_slope_ms_per_ktoken
    FROM population
    GROUP BY run_id, concurrency
),
judged AS (
    SELECT s.* EXCLUDE (prompt_p10_p90),
           prompt_p10_p90[1] AS prompt_p10, prompt_p10_p90[2] AS prompt_p90,
           100.0 * mlt_slope_ms_per_ktoken / 1000 * (prompt_p90 - prompt_p10)
               / nullif(mlt_intercept_ms + mlt_slope_ms_per_ktoken / 1000 * prompt_p10, 0)
               AS mlt_rise_pct
    FROM series s
),
bucket_lists AS (
    SELECT run_id, concurrency, bucket_lo,
           CASE WHEN min(bucket_tokens) > 0 THEN bucket_lo + min(bucket_tokens) ELSE 2 * bucket_lo END
               AS bucket_hi,
           count(*) AS requests,
           quantile_cont(prompt, 0.50) AS prompt_p50,
           quantile_cont(mlt_ms, [0.50, 0.95]) AS mlt_p50_p95,
           quantile_cont(tpot_ms, [0.50, 0.95]) AS tpot_p50_p95
    FROM bucketed
    GROUP BY run_id, concurrency, bucket_lo
),
buckets AS (
    SELECT run_id, concurrency, bucket_lo, bucket_hi, requests, prompt_p50,
           mlt_p50_p95[1] AS mlt_p50_ms, mlt_p50_p95[2] AS mlt_p95_ms,
           tpot_p50_p95[1] AS tpot_p50_ms, tpot_p50_p95[2] AS tpot_p95_ms
    FROM bucket_lists
)
SELECT b.run_id, b.concurrency, b.bucket_lo, b.bucket_hi, b.requests, b.prompt_p50, b.mlt_p50_ms,
       b.mlt_p95_ms, b.tpot_p50_ms, b.tpot_p95_ms, j.series_requests, j.prompt_p10, j.prompt_p90,
       j.mlt_slope_ms_per_ktoken, j.mlt_intercept_ms, j.mlt_r2, j.mlt_rise_pct,
       j.tpot_slope_ms_per_ktoken,
       coalesce(j.series_requests >= t.min_requests AND j.mlt_r2 >= t.min_r2
                    AND j.mlt_rise_pct > t.threshold_pct, false) AS decode_bandwidth_bound
FROM buckets b
JOIN judged j ON j.run_id = b.run_id AND j.concurrency IS NOT DISTINCT FROM b.concurrency
CROSS JOIN settings t
ORDER BY b.run_id, b.concurrency NULLS LAST, b.bucket_lo
