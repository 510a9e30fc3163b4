-- report/environment_instances: which servers produced the data: engine, version where a log says it, sources, events and time span per instance?
-- params:  none
-- returns: engine, instance, version, files, request_timing_rows, request_sources, arrivals,
--          stats_snapshots, batch_steps, notices, error_notices, first_ts, last_ts
--
-- version: the last 'version' fact of server_config (the version line of the latest start), else
-- the first version a startup or config notice names; NULL when no log line says it. request_sources: the request_timing
-- source_kinds, comma-separated (otlp, perf_metrics, meta_info, metrics_export). error_notices:
-- notices of kind error or oom. files: distinct source paths over every event table. first_ts and
-- last_ts span every event with a timestamp.
WITH events AS (
    SELECT engine, instance, 'timing' AS tbl, source_kind AS kind, source_path, ts FROM request_timing
    UNION ALL SELECT engine, instance, 'arrived', NULL, source_path, ts FROM request_arrived
    UNION ALL SELECT engine, instance, 'finished', NULL, source_path, ts FROM request_finished
    UNION ALL SELECT engine, instance, 'aborted', NULL, source_path, ts FROM request_aborted
    UNION ALL SELECT engine, instance, 'stats', NULL, source_path, ts FROM engine_stats
    UNION ALL SELECT engine, instance, 'batch', NULL, source_path, ts FROM batch_step
    UNION ALL SELECT engine, instance, 'notice', kind, source_path, ts FROM server_notice
    UNION ALL SELECT engine, instance, 'config', NULL, source_path, ts FROM server_config
),
config_versions AS (
    SELECT engine, instance,
           arg_max(value, coalesce(ts, TIMESTAMP '1970-01-01')) AS version
    FROM server_config
    WHERE key = 'version'
    GROUP BY engine, instance
),
versions AS (
    SELECT engine, instance,
           arg_min(regexp_extract(message, '[Vv]ersion[: =]+v?([0-9]+(\.[0-9A-Za-z+-]+)+)', 1),
                   coalesce(ts, TIMESTAMP '1970-01-01'))
               FILTER (WHERE regexp_matches(message, '[Vv]ersion[: =]+v?[0-9]+\.'))
               AS version
    FROM server_notice
    WHERE kind IN ('startup', 'config')
    GROUP BY engine, instance
)
SELECT e.engine, e.instance, coalesce(c.version, v.version) AS version,
       count(DISTINCT e.source_path) AS files,
       count(*) FILTER (WHERE e.tbl = 'timing') AS request_timing_rows,
       string_agg(DISTINCT e.kind, ',' ORDER BY e.kind) FILTER (WHERE e.tbl = 'timing')
           AS request_sources,
       count(*) FILTER (WHERE e.tbl = 'arrived') AS arrivals,
       count(*) FILTER (WHERE e.tbl = 'stats') AS stats_snapshots,
       count(*) FILTER (WHERE e.tbl = 'batch') AS batch_steps,
       count(*) FILTER (WHERE e.tbl = 'notice') AS notices,
       count(*) FILTER (WHERE e.tbl = 'notice' AND e.kind IN ('error', 'oom')) AS error_notices,
       min(e.ts) AS first_ts,
       max(e.ts) AS last_ts
FROM events e
LEFT JOIN versions v ON v.engine = e.engine AND v.instance = e.instance
LEFT JOIN config_versions c ON c.engine = e.engine AND c.instance = e.instance
GROUP BY e.engine, e.instance, coalesce(c.version, v.version)
ORDER BY e.engine, e.instance
