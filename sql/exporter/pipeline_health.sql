-- exporter/pipeline_health: how fresh and how clean the store is, per instance and kind of row.
-- params:  none
-- returns: kind, instance, engine, rows, newest_ts
--
-- kind 'event': rows per instance over the event tables and the time of the newest one (now minus
-- it is how old the freshest row is: line-to-row freshness while the server logs steadily);
-- 'reject': lines the parsers rejected, per engine (0 for an engine with events and no reject, so
-- the counter exists before the first reject; instance is NULL: rejects name their file);
-- 'client': client timing rows per run (instance holds the run_id). docs/live.md#metrics.
WITH events AS (
    SELECT instance, engine, ts FROM request_arrived
    UNION ALL SELECT instance, engine, ts FROM request_timing
    UNION ALL SELECT instance, engine, ts FROM request_finished
    UNION ALL SELECT instance, engine, ts FROM request_aborted
    UNION ALL SELECT instance, engine, ts FROM engine_stats
    UNION ALL SELECT instance, engine, ts FROM batch_step
    UNION ALL SELECT instance, engine, ts FROM server_notice
)
SELECT 'event' AS kind, instance, any_value(engine) AS engine, count(*) AS rows, max(ts) AS newest_ts
FROM events
GROUP BY instance
UNION ALL
SELECT 'reject', NULL, e.engine, count(r.engine), max(r.ingested_ts)
FROM (SELECT DISTINCT engine FROM events
      UNION SELECT DISTINCT coalesce(engine, 'unknown') FROM rejects) e
LEFT JOIN rejects r ON coalesce(r.engine, 'unknown') = e.engine
GROUP BY e.engine
UNION ALL
SELECT 'client', run_id, NULL, count(*), NULL
FROM client_timing
GROUP BY run_id
ORDER BY kind, instance, engine
