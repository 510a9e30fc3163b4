-- attribution/core_metrics: FTL, MLT, end-to-end and server TPOT percentiles, overall, per run and per concurrency level.
-- params:  none
-- returns: group_by ('all' | 'run' | 'concurrency'), group_value, metric ('ftl' | 'mlt' | 'tpot' |
--          'e2e'), requests, p50_ms, p90_ms, p95_ms, p99_ms, mean_ms
--
-- Definitions (the seed's; DESIGN.md):
--   ftl  = client_ttft_ms: request sent -> first token, as the client saw it
--   mlt  = (client_e2e_ms - client_ttft_ms) / (output_tokens - 1): time per token after the first;
--          never e2e / tokens, which folds FTL in
--   tpot = server decode_ms / (output_tokens - 1)
--   e2e  = client_e2e_ms
-- Population: client requests with status ok that are not warm-up, joined or not (the black-box view);
-- tpot only from included (attributed) requests. Reads request_attribution: run the attribution first.
WITH population AS (
    SELECT * FROM request_attribution WHERE status = 'ok' AND NOT warmup
),
metrics(ord, metric) AS (
    VALUES (1, 'ftl'), (2, 'mlt'), (3, 'tpot'), (4, 'e2e')
),
long AS (
    SELECT p.run_id, p.concurrency, m.ord, m.metric,
           CASE m.metric WHEN 'ftl' THEN p.client_ttft_ms
                         WHEN 'mlt' THEN p.mlt_ms
                         WHEN 'tpot' THEN CASE WHEN p.included THEN p.tpot_ms END
                         ELSE p.client_e2e_ms END AS value_ms
    FROM population p
    CROSS JOIN metrics m
)
SELECT CASE WHEN grouping(run_id) = 0 THEN 'run'
            WHEN grouping(concurrency) = 0 THEN 'concurrency'
            ELSE 'all' END AS group_by,
       CASE WHEN grouping(run_id) = 0 THEN run_id
            WHEN grouping(concurrency) = 0 THEN coalesce(CAST(concurrency AS VARCHAR), 'unknown')
       END AS group_value,
       metric,
       count(value_ms) AS requests,
       -- one list aggregate (DuckDB computes identical aggregates once) instead of four, each of
       -- which would keep every value in memory: at 1 M requests that exceeded memory_limit
       (quantile_cont(value_ms, [0.50, 0.90, 0.95, 0.99]))[1] AS p50_ms,
       (quantile_cont(value_ms, [0.50, 0.90, 0.95, 0.99]))[2] AS p90_ms,
       (quantile_cont(value_ms, [0.50, 0.90, 0.95, 0.99]))[3] AS p95_ms,
       (quantile_cont(value_ms, [0.50, 0.90, 0.95, 0.99]))[4] AS p99_ms,
       avg(value_ms) AS mean_ms
FROM long
GROUP BY GROUPING SETS ((ord, metric), (ord, metric, run_id), (ord, metric, concurrency))
ORDER BY grouping(run_id) + 2 * grouping(concurrency) DESC, concurrency NULLS LAST, run_id, ord
