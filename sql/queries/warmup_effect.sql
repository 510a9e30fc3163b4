-- queries/warmup_effect: did warm-up distort the numbers? Warm-up requests and each run's first requests against its steady state.
-- params:  :run_id (VARCHAR, default every run), :first_n (INTEGER, default 5),
--          :threshold_pct (DOUBLE, default 50)
-- returns: run_id, phase, requests, ftl_p50_ms, ftl_p95_ms, e2e_p50_ms, prefill_p50_ms,
--          ftl_p50_vs_steady_pct, slower_than_steady
--
-- Per run, client requests with status ok in three phases: warmup (flagged warm-up, by the client or
-- by --warmup-first; already excluded from every aggregate), first_n (the first :first_n requests
-- by start time that are not warm-up: counted in the aggregates) and steady (the rest). prefill is the
-- server's, for paired requests. ftl_p50_vs_steady_pct = 100 * (ftl_p50_ms / the steady ftl_p50_ms -
-- 1); slower_than_steady = that is above :threshold_pct. The seed: the first requests after a
-- deployment pay for memory allocation and CUDA initialisation, so send 3-5 warm-up requests before
-- measuring. A first_n phase slower than steady means warm-up leaked into the numbers: flag those
-- requests in the client file or rerun the attribution with --warmup-first.
WITH settings AS (
    SELECT CAST(:run_id AS VARCHAR) AS only_run,
           coalesce(CAST(:first_n AS INTEGER), 5) AS first_n,
           coalesce(CAST(:threshold_pct AS DOUBLE), 50.0) AS threshold_pct
),
ok AS (
    -- the columns used, not a.*; order_key sorts as the start order below (start_ts NULLS LAST,
    -- aligned_start_ts NULLS LAST, source path, line: unique per client row) without NULLs
    SELECT a.run_id, a.warmup, a.client_ttft_ms, a.client_e2e_ms, a.prefill_ms,
           struct_pack(s := coalesce(a.start_ts, TIMESTAMP 'infinity'),
                       a := coalesce(a.aligned_start_ts, TIMESTAMP 'infinity'),
                       p := a.client_source_path, l := a.client_source_line) AS order_key
    FROM request_attribution a
    CROSS JOIN settings s
    WHERE a.status = 'ok' AND (s.only_run IS NULL OR a.run_id = s.only_run)
),
first_keys AS (
    -- each run's first :first_n steady requests by a top-N aggregate (a heap of :first_n keys),
    -- not a row_number() over every request (a sort of them all: 26 s at 10 M requests)
    SELECT o.run_id, list_max(arg_min(o.order_key, o.order_key, s.first_n)) AS last_first_key
    FROM ok o
    CROSS JOIN settings s
    WHERE NOT o.warmup AND s.first_n > 0
    GROUP BY o.run_id
),
phased AS (
    SELECT o.*,
           CASE WHEN o.warmup THEN 'warmup'
                WHEN o.order_key <= f.last_first_key THEN 'first_n'
                ELSE 'steady' END AS phase
    FROM ok o
    LEFT JOIN first_keys f ON f.run_id = o.run_id
),
phase_lists AS (
    SELECT run_id, phase,
           CASE phase WHEN 'warmup' THEN 1 WHEN 'first_n' THEN 2 ELSE 3 END AS ord,
           count(*) AS requests,
           -- one list quantile for FTL: each scalar quantile_cont keeps its own copy of every value
           quantile_cont(client_ttft_ms, [0.50, 0.95]) AS ftl_p50_p95,
           quantile_cont(client_e2e_ms, 0.50) AS e2e_p50_ms,
           quantile_cont(prefill_ms, 0.50) AS prefill_p50_ms
    FROM phased
    GROUP BY run_id, phase
),
phases AS (
    SELECT run_id, phase, ord, requests, ftl_p50_p95[1] AS ftl_p50_ms, ftl_p50_p95[2] AS ftl_p95_ms,
           e2e_p50_ms, prefill_p50_ms
    FROM phase_lists
),
steady AS (
    SELECT run_id, ftl_p50_ms AS steady_ftl_p50_ms FROM phases WHERE phase = 'steady'
)
SELECT p.run_id, p.phase, p.requests, p.ftl_p50_ms, p.ftl_p95_ms, p.e2e_p50_ms, p.prefill_p50_ms,
       100.0 * (p.ftl_p50_ms / nullif(s.steady_ftl_p50_ms, 0) - 1) AS ftl_p50_vs_steady_pct,
       100.0 * (p.ftl_p50_ms / nullif(s.steady_ftl_p50_ms, 0) - 1) > t.threshold_pct
           AS slower_than_steady
FROM phases p
CROSS JOIN settings t
LEFT JOIN steady s ON s.run_id = p.run_id
ORDER BY p.run_id, p.ord
