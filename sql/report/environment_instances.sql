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
per_file AS (
    -- one row per instance, table, kind and file first (a few rows from every event), so the
    -- distinct counts and the version joins below read those instead of every event (seconds at
    -- 10 M requests)
    SELECT engine, instance, tbl, kind, source_path, count(*) AS n, min(ts) AS first_ts,
           max(ts) AS last_ts
    FROM events
    GROUP BY ALL
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
       CAST(coalesce(sum(e.n) FILTER (WHERE e.tbl = 'timing'), 0) AS BIGINT) AS request_timing_rows,
       string_agg(DISTINCT e.kind, ',' ORDER BY e.kind) FILTER (WHERE e.tbl = 'timing')
           AS request_sources,
       CAST(coalesce(sum(e.n) FILTER (WHERE e.tbl = 'arrived'), 0) AS BIGINT) AS arrivals,
       CAST(coalesce(sum(e.n) FILTER (WHERE e.tbl = 'stats'), 0) AS BIGINT) AS stats_snapshots,
       CAST(coalesce(sum(e.n) FILTER (WHERE e.tbl = 'batch'), 0) AS BIGINT) AS batch_steps,
       CAST(coalesce(sum(e.n) FILTER (WHERE e.tbl = 'notice'), 0) AS BIGINT) AS notices,
       CAST(coalesce(sum(e.n) FILTER (WHERE e.tbl = 'notice' AND e.kind IN ('error', 'oom')), 0)
            AS BIGINT) AS error_notices,
       min(e.first_ts) AS first_ts,
       max(e.last_ts) AS last_ts
FROM per_file e
LEFT JOIN versions v ON v.engine = e.engine AND v.instance = e.instance
LEFT JOIN config_versions c ON c.engine = e.engine AND c.instance = e.instance
GROUP BY e.engine, e.instance, coalesce(c.version, v.version)
ORDER BY e.engine, e.instance
