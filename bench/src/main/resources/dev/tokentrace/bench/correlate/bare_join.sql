-- bench/bare_join: the lower bound for correlate + core metrics: a plain join of the client and
-- server tables by request_key and the same percentiles (P50/P90/P95/P99, mean) of FTL, MLT, TPOT
-- and e2e, overall and per concurrency level (attribution/core_metrics), plus those of the network,
-- queue, prefill and decode components. No retry, duplicate, clock or suspect rules.
-- params:  none
-- returns: concurrency (NULL = all), metric, requests, p50_ms, p90_ms, p95_ms, p99_ms, mean_ms
WITH joined AS (
    SELECT c.concurrency, c.ttft_ms AS ftl,
           CASE WHEN c.output_tokens > 1
                THEN (c.e2e_ms - c.ttft_ms) / (c.output_tokens - 1) END AS mlt,
           CASE WHEN t.output_tokens > 1 THEN t.decode_ms / (t.output_tokens - 1) END AS tpot,
           c.e2e_ms AS e2e,
           c.e2e_ms - coalesce(c.client_queue_ms, 0) - (t.queue_ms + t.prefill_ms + t.decode_ms)
               AS network,
           t.queue_ms AS queue, t.prefill_ms AS prefill, t.decode_ms AS decode
    FROM client_timing c
    JOIN request_timing t ON t.request_key = c.request_key
    WHERE c.status = 'ok' AND NOT c.warmup
),
long AS (
    UNPIVOT joined ON ftl, mlt, tpot, e2e, network, queue, prefill, decode
    INTO NAME metric VALUE value_ms
)
SELECT concurrency, metric, count(value_ms) AS requests,
       (quantile_cont(value_ms, [0.50, 0.90, 0.95, 0.99]))[1] AS p50_ms,
       (quantile_cont(value_ms, [0.50, 0.90, 0.95, 0.99]))[2] AS p90_ms,
       (quantile_cont(value_ms, [0.50, 0.90, 0.95, 0.99]))[3] AS p95_ms,
       (quantile_cont(value_ms, [0.50, 0.90, 0.95, 0.99]))[4] AS p99_ms,
       avg(value_ms) AS mean_ms
FROM long
GROUP BY GROUPING SETS ((metric), (metric, concurrency))
ORDER BY concurrency NULLS FIRST, metric
