-- attribution/environment_sources: which engines and instances the server data came from, and through which sources.
-- params:  none
-- returns: engine, instance, source_table, source_kind, events, files, first_ts, last_ts
--
-- source_kind is request_timing.source_kind (otlp, perf_metrics, meta_info, ...); text-log tables
-- report 'text_log', engine_stats 'stats', batch_step 'batch', server_notice 'notice',
-- server_config 'config'.
SELECT engine, instance, source_table, source_kind, CAST(sum(n) AS BIGINT) AS events,
       count(DISTINCT source_path) AS files, min(first_ts) AS first_ts, max(last_ts) AS last_ts
FROM (
    -- per file first (a few rows from every event): the distinct count over every event took
    -- 4x as long (0.7 s against 0.16 s at 1 M requests)
    SELECT engine, instance, source_table, source_kind, source_path, count(*) AS n,
           min(ts) AS first_ts, max(ts) AS last_ts
    FROM (
        SELECT engine, instance, 'request_timing' AS source_table, source_kind, source_path, ts
        FROM request_timing
        UNION ALL
        SELECT engine, instance, 'request_arrived', 'text_log', source_path, ts FROM request_arrived
        UNION ALL
        SELECT engine, instance, 'request_finished', 'text_log', source_path, ts FROM request_finished
        UNION ALL
        SELECT engine, instance, 'request_aborted', 'text_log', source_path, ts FROM request_aborted
        UNION ALL
        SELECT engine, instance, 'engine_stats', 'stats', source_path, ts FROM engine_stats
        UNION ALL
        SELECT engine, instance, 'batch_step', 'batch', source_path, ts FROM batch_step
        UNION ALL
        SELECT engine, instance, 'server_notice', 'notice', source_path, ts FROM server_notice
        UNION ALL
        SELECT engine, instance, 'server_config', 'config', source_path, ts FROM server_config
    )
    GROUP BY ALL
)
GROUP BY engine, instance, source_table, source_kind
ORDER BY engine, instance, source_table, source_kind
