-- queries/request_snapshots: what did the server's queue and batch look like when each request arrived?
-- params:  :limit (INTEGER, default 100: rows, slowest client e2e first)
-- returns: request_key, run_id, instance, aligned_start_ts, clock_offset_ms, client_e2e_ms,
--          dominant, stats_ts, running, waiting, kv_usage_pct, batch_ts, batch_phase, batch_size,
--          batch_queued
--
-- Places each paired request (matched or heuristic) on the server clock (aligned_start_ts: the client
-- start plus the run's clock offset, see attribution/clock_offsets) and takes, on the same instance,
-- the last engine_stats snapshot and the last batch_step at or before that moment (ASOF join). Without
-- a clock offset, a wall-clock client is taken as in sync and a monotonic one cannot be placed
-- (aligned_start_ts NULL, no snapshot). vLLM stats lines come every 5-10 s, so a snapshot can be that
-- old; compare stats_ts. Reads request_attribution: run the attribution first.
WITH paired AS (
    SELECT request_key, run_id, instance, aligned_start_ts, clock_offset_ms, client_e2e_ms,
           dominant
    FROM request_attribution
    WHERE join_status IN ('matched', 'heuristic') AND aligned_start_ts IS NOT NULL
),
stats AS (
    SELECT instance, ts, running, waiting, kv_usage_pct FROM engine_stats WHERE ts IS NOT NULL
),
batches AS (
    SELECT instance, ts, phase, batch_size, queued FROM batch_step WHERE ts IS NOT NULL
)
SELECT p.request_key, p.run_id, p.instance, p.aligned_start_ts, p.clock_offset_ms,
       p.client_e2e_ms, p.dominant, s.ts AS stats_ts, s.running, s.waiting, s.kv_usage_pct,
       b.ts AS batch_ts, b.phase AS batch_phase, b.batch_size, b.queued AS batch_queued
FROM paired p
ASOF LEFT JOIN stats s ON s.instance = p.instance AND s.ts <= p.aligned_start_ts
ASOF LEFT JOIN batches b ON b.instance = p.instance AND b.ts <= p.aligned_start_ts
ORDER BY p.client_e2e_ms DESC NULLS LAST, p.request_key
LIMIT coalesce(CAST(:limit AS INTEGER), 100)
