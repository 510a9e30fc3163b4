-- queries/prefill_vs_prompt: is prefill the bottleneck? TTFT (ftl_* columns) and server prefill by prompt-length bucket, per run and concurrency level, with how linearly TTFT grows with the prompt.
-- params:  :run_id (VARCHAR, default every run), :bucket_tokens (INTEGER, default 0: power-of-two
--          buckets; N > 0: buckets N tokens wide), :threshold_pct (DOUBLE, default 50),
--          :min_r2 (DOUBLE, default 0.8), :min_requests (INTEGER, default 8)
-- returns: run_id, concurrency, bucket_lo, bucket_hi, requests, prompt_p50, ftl_p50_ms, ftl_p95_ms,
--          prefill_p50_ms, prefill_p95_ms, series_requests, prompt_p10, prompt_p90,
--          ftl_slope_ms_per_ktoken, ftl_intercept_ms, ftl_r2, ftl_rise_pct,
--          prefill_slope_ms_per_ktoken, prefill_r2, prefill_share_of_ftl, prefill_bound
--
-- Population: client requests with status ok, not warm-up, with an FTL and a prompt length (the
-- client's, else the matched server record's). prefill: the server's prefill time, from attributed
-- requests only. A bucket holds prompts in [bucket_lo, bucket_hi). The series is one run at one
-- concurrency level (FTL also holds queueing, which grows with the load).
-- Per series, a least-squares line of FTL over prompt tokens: ftl_slope_ms_per_ktoken (ms per 1000
-- prompt tokens), ftl_r2 its fit (1 = a straight line); ftl_rise_pct = how much the line rises from
-- the series' P10 prompt to its P90 prompt, in percent of its value at P10; prefill_share_of_ftl =
-- sum(prefill) / sum(FTL) of the attributed requests. prefill_bound = at least :min_requests requests,
-- ftl_r2 >= :min_r2 and ftl_rise_pct > :threshold_pct: FTL grows linearly with the prompt, the seed's
-- sign that prefill is the bottleneck (chunked prefill, prefix caching, shorter prompts).
WITH settings AS (
    SELECT CAST(:run_id AS VARCHAR) AS run_id,
           coalesce(CAST(:bucket_tokens AS INTEGER), 0) AS bucket_tokens,
           coalesce(CAST(:threshold_pct AS DOUBLE), 50.0) AS threshold_pct,
           coalesce(CAST(:min_r2 AS DOUBLE), 0.8) AS min_r2,
           coalesce(CAST(:min_requests AS INTEGER), 8) AS min_requests
),
population AS (
    -- prompt tokens from the attribution where it has them; only the other requests are joined
    -- back to their server record for them (a join of every request: tens of seconds at 10 M)
    SELECT a.run_id, a.concurrency, a.client_ttft_ms AS ftl_ms,
           CASE WHEN a.included THEN a.prefill_ms END AS prefill_ms,
           CASE WHEN a.included THEN a.client_ttft_ms END AS attributed_ftl_ms,
           CAST(a.prompt_tokens AS DOUBLE) AS prompt
    FROM request_attribution a
    CROSS JOIN settings s
    WHERE a.status = 'ok' AND NOT a.warmup AND a.client_ttft_ms IS NOT NULL
      AND a.prompt_tokens > 0
      AND (s.run_id IS NULL OR a.run_id = s.run_id)
    UNION ALL
    SELECT a.run_id, a.concurrency, a.client_ttft_ms AS ftl_ms,
           CASE WHEN a.included THEN a.prefill_ms END AS prefill_ms,
           CASE WHEN a.included THEN a.client_ttft_ms END AS attributed_ftl_ms,
           CAST(t.prompt_tokens AS DOUBLE) AS prompt
    FROM request_attribution a
    CROSS JOIN settings s
    JOIN request_timing t
      ON t.request_id = a.server_request_id AND t.source_path = a.server_source_path
     AND t.source_line = a.server_source_line AND t.instance = a.instance
    WHERE a.status = 'ok' AND NOT a.warmup AND a.client_ttft_ms IS NOT NULL
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
           1000 * regr_slope(ftl_ms, prompt) AS ftl_slope_ms_per_ktoken,
           regr_intercept(ftl_ms, prompt) AS ftl_intercept_ms,
           regr_r2(ftl_ms, prompt) AS ftl_r2,
           1000 * regr_slope(prefill_ms, prompt) AS prefill_slope_ms_per_ktoken,
           regr_r2(prefill_ms, prompt) AS prefill_r2,
           sum(prefill_ms) / nullif(sum(attributed_ftl_ms), 0) AS prefill_share_of_ftl
    FROM population
    GROUP BY run_id, concurrency
),
judged AS (
    SELECT s.* EXCLUDE (prompt_p10_p90),
           prompt_p10_p90[1] AS prompt_p10, prompt_p10_p90[2] AS prompt_p90,
           100.0 * ftl_slope_ms_per_ktoken / 1000 * (prompt_p90 - prompt_p10)
               / nullif(ftl_intercept_ms + ftl_slope_ms_per_ktoken / 1000 * prompt_p10, 0)
               AS ftl_rise_pct
    FROM series s
),
bucket_lists AS (
    SELECT run_id, concurrency, bucket_lo,
           CASE WHEN min(bucket_tokens) > 0 THEN bucket_lo + min(bucket_tokens) ELSE 2 * bucket_lo END
               AS bucket_hi,
           count(*) AS requests,
           quantile_cont(prompt, 0.50) AS prompt_p50,
           quantile_cont(ftl_ms, [0.50, 0.95]) AS ftl_p50_p95,
           quantile_cont(prefill_ms, [0.50, 0.95]) AS prefill_p50_p95
    FROM bucketed
    GROUP BY run_id, concurrency, bucket_lo
),
buckets AS (
    SELECT run_id, concurrency, bucket_lo, bucket_hi, requests, prompt_p50,
           ftl_p50_p95[1] AS ftl_p50_ms, ftl_p50_p95[2] AS ftl_p95_ms,
           prefill_p50_p95[1] AS prefill_p50_ms, prefill_p50_p95[2] AS prefill_p95_ms
    FROM bucket_lists
)
SELECT b.run_id, b.concurrency, b.bucket_lo, b.bucket_hi, b.requests, b.prompt_p50, b.ftl_p50_ms,
       b.ftl_p95_ms, b.prefill_p50_ms, b.prefill_p95_ms, j.series_requests, j.prompt_p10,
       j.prompt_p90, j.ftl_slope_ms_per_ktoken, j.ftl_intercept_ms, j.ftl_r2, j.ftl_rise_pct,
       j.prefill_slope_ms_per_ktoken, j.prefill_r2, j.prefill_share_of_ftl,
       coalesce(j.series_requests >= t.min_requests AND j.ftl_r2 >= t.min_r2
                    AND j.ftl_rise_pct > t.threshold_pct, false) AS prefill_bound
FROM buckets b
JOIN judged j ON j.run_id = b.run_id AND j.concurrency IS NOT DISTINCT FROM b.concurrency
CROSS JOIN settings t
ORDER BY b.run_id, b.concurrency NULLS LAST, b.bucket_lo
