-- attribution/core_metrics: FTL, MLT, end-to-end and server TPOT percentiles, overall, per run and per concurrency level.
-- params:  :group_by (VARCHAR, all | run | concurrency; default every grouping)
-- returns: group_by ('all' | 'run' | 'concurrency'), group_value, metric ('ftl' | 'mlt' | 'tpot' |
--          'e2e'), requests, p50_ms, p90_ms, p95_ms, p99_ms, mean_ms
--
-- Definitions (the seed's; docs/design.md#method):
--   ftl  = client_ttft_ms: request sent -> first token, as the client saw it
--   mlt  = (client_e2e_ms - client_ttft_ms) / (output_tokens - 1): time per token after the first;
--          never e2e / tokens, which folds FTL in
--   tpot = server decode_ms / (output_tokens - 1)
--   e2e  = client_e2e_ms
-- Population: client requests with status ok that are not warm-up, joined or not (the black-box view);
-- tpot only from included (attributed) requests. Reads request_attribution: run the attribution first.
-- Memory: exact percentiles keep every value (8 bytes per request, metric and grouping; DuckDB cannot
-- spill them): ≈ 0.3 GB per grouping at 10 M requests, so `report` runs one :group_by at a time.
WITH settings AS (
    SELECT CAST(:group_by AS VARCHAR) AS group_by
),
population AS (
    SELECT run_id, concurrency, client_ttft_ms, mlt_ms,
           CASE WHEN included THEN tpot_ms END AS tpot_ms, client_e2e_ms
    FROM request_attribution
    WHERE status = 'ok' AND NOT warmup
),
groupings(grouping_rank, group_by) AS (
    VALUES (3, 'all'), (2, 'run'), (1, 'concurrency')
),
wide AS (
    SELECT g.grouping_rank, g.group_by,
           CASE g.group_by WHEN 'run' THEN p.run_id
                           WHEN 'concurrency' THEN coalesce(CAST(p.concurrency AS VARCHAR), 'unknown')
           END AS group_value,
           CASE WHEN g.group_by = 'run' THEN p.run_id END AS run_id,
           CASE WHEN g.group_by = 'concurrency' THEN p.concurrency END AS concurrency,
           -- one list aggregate per metric: four would each keep every value in memory
           count(p.client_ttft_ms) AS ftl_n, avg(p.client_ttft_ms) AS ftl_mean,
           quantile_cont(p.client_ttft_ms, [0.50, 0.90, 0.95, 0.99]) AS ftl_q,
           count(p.mlt_ms) AS mlt_n, avg(p.mlt_ms) AS mlt_mean,
           quantile_cont(p.mlt_ms, [0.50, 0.90, 0.95, 0.99]) AS mlt_q,
           count(p.tpot_ms) AS tpot_n, avg(p.tpot_ms) AS tpot_mean,
           quantile_cont(p.tpot_ms, [0.50, 0.90, 0.95, 0.99]) AS tpot_q,
           count(p.client_e2e_ms) AS e2e_n, avg(p.client_e2e_ms) AS e2e_mean,
           quantile_cont(p.client_e2e_ms, [0.50, 0.90, 0.95, 0.99]) AS e2e_q
    FROM population p
    JOIN groupings g ON g.group_by = coalesce((SELECT group_by FROM settings), g.group_by)
    GROUP BY ALL
),
metrics(ord, metric) AS (
    VALUES (1, 'ftl'), (2, 'mlt'), (3, 'tpot'), (4, 'e2e')
),
long AS (
    SELECT w.grouping_rank, w.group_by, w.group_value, w.run_id, w.concurrency, m.ord, m.metric,
           CASE m.metric WHEN 'ftl' THEN ftl_n WHEN 'mlt' THEN mlt_n WHEN 'tpot' THEN tpot_n
                         ELSE e2e_n END AS requests,
           CASE m.metric WHEN 'ftl' THEN ftl_q WHEN 'mlt' THEN mlt_q WHEN 'tpot' THEN tpot_q
                         ELSE e2e_q END AS percentiles,
           CASE m.metric WHEN 'ftl' THEN ftl_mean WHEN 'mlt' THEN mlt_mean
                         WHEN 'tpot' THEN tpot_mean ELSE e2e_mean END AS mean_ms
    FROM wide w
    CROSS JOIN metrics m
)
SELECT group_by, group_value, metric, requests, percentiles[1] AS p50_ms, percentiles[2] AS p90_ms,
       percentiles[3] AS p95_ms, percentiles[4] AS p99_ms, mean_ms
FROM long
ORDER BY grouping_rank DESC, concurrency NULLS LAST, run_id, ord
