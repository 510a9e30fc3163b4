-- queries/concurrency_sensitivity: is it queueing or compute? FTL and MLT per concurrency level against the lowest level, with the seed's > 50% FTL growth rule.
-- params:  :threshold_pct (DOUBLE, default 50)
-- returns: concurrency, requests, ftl_p50_ms, ftl_p95_ms, mlt_p50_ms, mlt_p95_ms,
--          baseline_concurrency, ftl_p50_growth_pct, queueing_bound
--
-- Population: client requests with status ok, not warm-up, with a concurrency level, joined or not
-- (the black-box view). baseline = the lowest level; ftl_p50_growth_pct = 100 * (ftl_p50_ms /
-- baseline ftl_p50_ms - 1); queueing_bound = growth > :threshold_pct. The seed compares 1 with 8: if
-- FTL grows by more than 50%, queueing is the main problem, not compute.
WITH levels AS (
    SELECT concurrency,
           count(*) AS requests,
           quantile_cont(client_ttft_ms, 0.50) AS ftl_p50_ms,
           quantile_cont(client_ttft_ms, 0.95) AS ftl_p95_ms,
           quantile_cont(mlt_ms, 0.50) AS mlt_p50_ms,
           quantile_cont(mlt_ms, 0.95) AS mlt_p95_ms
    FROM request_attribution
    WHERE status = 'ok' AND NOT warmup AND concurrency IS NOT NULL
    GROUP BY concurrency
),
baseline AS (
    SELECT concurrency AS baseline_concurrency, ftl_p50_ms AS baseline_ftl_p50_ms
    FROM levels
    ORDER BY concurrency
    LIMIT 1
)
SELECT l.concurrency, l.requests, l.ftl_p50_ms, l.ftl_p95_ms, l.mlt_p50_ms, l.mlt_p95_ms,
       b.baseline_concurrency,
       100.0 * (l.ftl_p50_ms / nullif(b.baseline_ftl_p50_ms, 0) - 1) AS ftl_p50_growth_pct,
       100.0 * (l.ftl_p50_ms / nullif(b.baseline_ftl_p50_ms, 0) - 1)
           > coalesce(CAST(:threshold_pct AS DOUBLE), 50.0) AS queueing_bound
FROM levels l
CROSS JOIN baseline b
ORDER BY l.concurrency
