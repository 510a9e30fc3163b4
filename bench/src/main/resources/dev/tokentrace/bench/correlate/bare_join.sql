-- bench/bare_join: the lower bound for correlate + core metrics: a plain join of the client and
-- server tables by request_key and the same percentiles (P50/P90/P95/P99, mean) of FTL, MLT, TPOT
-- and e2e, overall and per concurrency level (attribution/core_metrics), plus those of the network,
-- queue, prefill and decode components. No retry, duplicate, clock or suspect rules.
-- Statements separated by ";\n". The join is kept in a temporary table (DuckDB spills it); the
-- percentiles are then computed the way the report computes them: one grouping per statement and
-- one list quantile_cont per metric, four metrics per statement, since exact quantiles keep every
-- value in memory (8 metrics x 10 M values x 2 groupings = 1.3 GB in one statement outgrew the
-- 1 GB memory_limit). {grouping} is replaced by NULL (all) or concurrency, {metrics} by the four.
CREATE TEMP TABLE joined AS
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
    WHERE c.status = 'ok' AND NOT c.warmup;
SELECT {grouping} AS concurrency,
       {metrics}
FROM joined
GROUP BY ALL
ORDER BY concurrency NULLS FIRST
