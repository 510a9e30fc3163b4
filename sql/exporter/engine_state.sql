-- exporter/engine_state: the latest engine snapshot per instance, for the exporter's gauges.
-- params:  none
-- returns: instance, engine, running, waiting, kv_cache_usage_ratio, stats_ts, batch_size,
--          batch_ts
--
-- running, waiting and KV-cache use come from the instance's newest engine_stats row (vLLM's and
-- SGLang's periodic stats lines, TensorRT-LLM's iteration stats), batch size from its newest
-- batch_step row; kv_cache_usage_ratio is kv_usage_pct / 100. An instance without one of the two
-- tables has NULLs there (docs/live.md#metrics).
WITH stats AS (
    SELECT instance, arg_max(engine, ts) AS engine, arg_max(running, ts) AS running,
           arg_max(waiting, ts) AS waiting, arg_max(kv_usage_pct, ts) / 100.0 AS kv_cache_usage_ratio,
           max(ts) AS stats_ts
    FROM engine_stats
    WHERE ts IS NOT NULL
    GROUP BY instance
),
batches AS (
    SELECT instance, arg_max(engine, ts) AS engine, arg_max(batch_size, ts) AS batch_size,
           max(ts) AS batch_ts
    FROM batch_step
    WHERE ts IS NOT NULL
    GROUP BY instance
)
SELECT coalesce(s.instance, b.instance) AS instance, coalesce(s.engine, b.engine) AS engine,
       s.running, s.waiting, s.kv_cache_usage_ratio, s.stats_ts, b.batch_size, b.batch_ts
FROM stats s
FULL OUTER JOIN batches b ON b.instance = s.instance
ORDER BY instance
