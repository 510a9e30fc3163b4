-- queries/concurrency_sensitivity: is it queueing or compute? Per run, TTFT (ftl_* columns) and ITL (mlt_*) at each concurrency level against the run's lowest level, with the +50% TTFT growth rule.
-- params:  :threshold_pct (DOUBLE, default 50), :group_by (VARCHAR, run | instance; default run),
--          :run_id (VARCHAR, default every run)
-- returns: group_by, group_value, concurrency, requests, ftl_p50_ms, ftl_p90_ms, ftl_p95_ms,
--          mlt_p50_ms, mlt_p95_ms, baseline_concurrency, ftl_p50_growth_pct, mlt_p50_growth_pct,
--          queueing_bound, rule_level, levels, mlt_p90_ms, tpot_p50_ms, tpot_p90_ms, tpot_p95_ms
--
-- Population: client requests with status ok, not warm-up, with a concurrency level, joined or not
-- (the black-box view). Levels are compared within one series only: a run (group_value = run_id), or
-- with group_by instance the server the requests reached (for sweeps loaded one level per run;
-- unpaired requests have no instance and are left out). Comparing levels across runs that measured
-- different workloads would mislead.
-- baseline = the series' lowest level; ftl_p50_growth_pct = 100 * (ftl_p50_ms / baseline ftl_p50_ms
-- - 1), mlt_p50_growth_pct alike; queueing_bound = growth > :threshold_pct. rule_level marks the
-- level the seed's rule compares with the baseline: concurrency 8 when measured, else the highest
-- level (levels = the series' number of levels; with one level there is nothing to compare). The seed:
-- if FTL grows by more than 50% from concurrency 1 to 8, queueing is the main problem, not compute.
-- TPOT (server decode / (output tokens - 1)) comes from the attributed requests of the level only.
WITH settings AS (
    SELECT coalesce(CAST(:threshold_pct AS DOUBLE), 50.0) AS threshold_pct,
           coalesce(CAST(:group_by AS VARCHAR), 'run') AS group_by,
           CAST(:run_id AS VARCHAR) AS run_id
),
population AS (
    SELECT s.group_by,
           CASE WHEN s.group_by = 'instance' THEN a.instance ELSE a.run_id END AS group_value,
           a.concurrency, a.client_ttft_ms, a.mlt_ms,
           CASE WHEN a.included THEN a.tpot_ms END AS tpot_ms
    FROM request_attribution a
    CROSS JOIN settings s
    WHERE a.status = 'ok' AND NOT a.warmup AND a.concurrency IS NOT NULL
      AND (s.run_id IS NULL OR a.run_id = s.run_id)
),
level_lists AS (
    -- one list aggregate per metric: each scalar quantile_cont would keep its own copy of every
    -- value (nine copies of 10 M values outgrow DuckDB's 1 GB memory_limit)
    SELECT group_by, group_value, concurrency,
           count(*) AS requests,
           quantile_cont(client_ttft_ms, [0.50, 0.90, 0.95]) AS ftl,
           quantile_cont(mlt_ms, [0.50, 0.90, 0.95]) AS mlt,
           quantile_cont(tpot_ms, [0.50, 0.90, 0.95]) AS tpot
    FROM population
    WHERE group_value IS NOT NULL
    GROUP BY group_by, group_value, concurrency
),
levels AS (
    SELECT group_by, group_value, concurrency, requests,
           ftl[1] AS ftl_p50_ms, ftl[2] AS ftl_p90_ms, ftl[3] AS ftl_p95_ms,
           mlt[1] AS mlt_p50_ms, mlt[3] AS mlt_p95_ms, mlt[2] AS mlt_p90_ms,
           tpot[1] AS tpot_p50_ms, tpot[2] AS tpot_p90_ms, tpot[3] AS tpot_p95_ms
    FROM level_lists
),
series AS (
    SELECT group_value,
           arg_min(concurrency, concurrency) AS baseline_concurrency,
           arg_min(ftl_p50_ms, concurrency) AS baseline_ftl_p50_ms,
           arg_min(mlt_p50_ms, concurrency) AS baseline_mlt_p50_ms,
           coalesce(max(concurrency) FILTER (WHERE concurrency = 8), max(concurrency)) AS rule_level,
           count(*) AS levels
    FROM levels
    GROUP BY group_value
)
SELECT l.group_by, l.group_value, l.concurrency, l.requests, l.ftl_p50_ms, l.ftl_p90_ms,
       l.ftl_p95_ms, l.mlt_p50_ms, l.mlt_p95_ms, s.baseline_concurrency,
       100.0 * (l.ftl_p50_ms / nullif(s.baseline_ftl_p50_ms, 0) - 1) AS ftl_p50_growth_pct,
       100.0 * (l.mlt_p50_ms / nullif(s.baseline_mlt_p50_ms, 0) - 1) AS mlt_p50_growth_pct,
       100.0 * (l.ftl_p50_ms / nullif(s.baseline_ftl_p50_ms, 0) - 1) > t.threshold_pct
           AS queueing_bound,
       s.levels > 1 AND l.concurrency = s.rule_level AS rule_level,
       s.levels, l.mlt_p90_ms, l.tpot_p50_ms, l.tpot_p90_ms, l.tpot_p95_ms
FROM levels l
JOIN series s ON s.group_value = l.group_value
CROSS JOIN settings t
ORDER BY l.group_value, l.concurrency
