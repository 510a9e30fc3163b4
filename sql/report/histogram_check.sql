-- report/histogram_check: do the server's own /metrics histograms agree with the per-request attribution?
-- params:  :tolerance_ms (DOUBLE, default 5), :tolerance_pct (DOUBLE, default 10)
-- returns: instance, component, metric, intervals, server_requests, server_mean_ms,
--          server_p50_ms, attributed_requests, attributed_mean_ms, attributed_p50_ms,
--          difference_ms, agrees
--
-- server_histogram rows (docs/formats/metrics.md#server_histogram): per instance and component, all
-- intervals' requests and summed time give the server's own mean (exact: sum / count), and the
-- request-weighted mean of the intervals' P50 a rough median. The attribution's side: the same
-- instance's attributed requests (status ok, not warm-up, matched or heuristic) with the matching
-- durations: queue = queue_ms, prefill = prefill_ms, decode = decode_ms, ttft = queue_ms +
-- prefill_ms (the server's first token), e2e = queue_ms + prefill_ms + decode_ms, tpot = tpot_ms.
-- ITL has no per-request counterpart and is left out. agrees: the means differ by at most
-- max(:tolerance_ms, :tolerance_pct % of the attribution's mean).
WITH settings AS (
    SELECT coalesce(CAST(:tolerance_ms AS DOUBLE), 5.0) AS tol_ms,
           coalesce(CAST(:tolerance_pct AS DOUBLE), 10.0) AS tol_pct
),
server AS (
    SELECT instance, component, any_value(metric ORDER BY ts) AS metric, count(*) AS intervals,
           sum(count) AS requests, sum(sum_ms) / nullif(sum(count), 0) AS mean_ms,
           sum(p50_ms * count) / nullif(sum(CASE WHEN p50_ms IS NOT NULL THEN count END), 0)
               AS p50_ms
    FROM server_histogram
    WHERE component IN ('queue', 'prefill', 'decode', 'ttft', 'e2e', 'tpot')
    GROUP BY instance, component
    HAVING sum(count) > 0
),
-- only the instances and components the server's histograms cover: without a scrape nothing is
-- read, and the exact medians below hold one column per covered component, not six for all
requests AS (
    SELECT instance, queue_ms, prefill_ms, decode_ms, tpot_ms
    FROM request_attribution
    WHERE status = 'ok' AND NOT warmup AND join_status IN ('matched', 'heuristic')
      AND instance IN (SELECT instance FROM server)
),
attributed AS (
    SELECT instance, c.component,
           CASE c.component
               WHEN 'queue' THEN queue_ms
               WHEN 'prefill' THEN prefill_ms
               WHEN 'decode' THEN decode_ms
               WHEN 'ttft' THEN queue_ms + prefill_ms
               WHEN 'e2e' THEN queue_ms + prefill_ms + decode_ms
               WHEN 'tpot' THEN tpot_ms
           END AS value_ms
    FROM requests
    JOIN (SELECT instance AS covered, component FROM server) c ON c.covered = requests.instance
),
attributed_stats AS (
    SELECT instance, component, count(value_ms) AS requests, avg(value_ms) AS mean_ms,
           quantile_cont(value_ms, 0.5) AS p50_ms
    FROM attributed
    GROUP BY instance, component
)
SELECT s.instance, s.component, s.metric, s.intervals, s.requests AS server_requests,
       s.mean_ms AS server_mean_ms, s.p50_ms AS server_p50_ms,
       coalesce(a.requests, 0) AS attributed_requests, a.mean_ms AS attributed_mean_ms,
       a.p50_ms AS attributed_p50_ms, s.mean_ms - a.mean_ms AS difference_ms,
       CASE WHEN a.mean_ms IS NULL THEN NULL
            ELSE abs(s.mean_ms - a.mean_ms)
                 <= greatest(t.tol_ms, t.tol_pct / 100.0 * abs(a.mean_ms)) END AS agrees
FROM server s
LEFT JOIN attributed_stats a ON a.instance = s.instance AND a.component = s.component
CROSS JOIN settings t
ORDER BY s.instance,
         list_position(['queue', 'prefill', 'decode', 'ttft', 'tpot', 'e2e'], s.component)
