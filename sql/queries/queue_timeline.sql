-- queries/queue_timeline: what were the server's queue, batch and KV cache doing around the slowest requests?
-- params:  :limit (INTEGER, default 5: slowest requests), :run_id (VARCHAR, default every run),
--          :before_s (DOUBLE, default 10), :after_s (DOUBLE, default 5)
-- returns: slow_rank, request_key, run_id, instance, client_e2e_ms, dominant, request_start_ts,
--          request_end_ts, source, ts, offset_ms, during_request, phase, running, waiting,
--          kv_usage_pct
--
-- The :limit slowest paired requests (status ok, not warm-up, by client_e2e_ms) placed on the server
-- clock (aligned_start_ts, see attribution/clock_offsets; end = start + client_e2e_ms), and every
-- snapshot of their instance from :before_s seconds before the start to :after_s after the end:
-- engine_stats (running, waiting, kv_usage_pct) and batch_step (running = batch_size, waiting =
-- queued, kv_usage_pct = 100 * token_usage, phase). offset_ms = ts - request start. A waiting queue
-- that builds before a slow request and drains after it is queueing; a full KV cache with waiting
-- requests is memory pressure (see queries/notices_near_slow for preemptions).
WITH settings AS (
    SELECT CAST(:run_id AS VARCHAR) AS only_run,
           to_microseconds(CAST(round(coalesce(CAST(:before_s AS DOUBLE), 10.0) * 1.0e6) AS BIGINT))
               AS before,
           to_microseconds(CAST(round(coalesce(CAST(:after_s AS DOUBLE), 5.0) * 1.0e6) AS BIGINT))
               AS after
),
slow AS (
    SELECT row_number() OVER (ORDER BY a.client_e2e_ms DESC NULLS LAST, a.request_key,
                                       a.client_source_path, a.client_source_line) AS slow_rank,
           a.request_key, a.run_id, a.instance, a.client_e2e_ms, a.dominant,
           a.aligned_start_ts AS request_start_ts,
           a.aligned_start_ts + to_microseconds(CAST(round(a.client_e2e_ms * 1000) AS BIGINT))
               AS request_end_ts
    FROM request_attribution a
    CROSS JOIN settings s
    WHERE a.status = 'ok' AND NOT a.warmup AND a.join_status IN ('matched', 'heuristic')
      AND a.aligned_start_ts IS NOT NULL AND a.client_e2e_ms IS NOT NULL
      AND (s.only_run IS NULL OR a.run_id = s.only_run)
    ORDER BY slow_rank
    LIMIT coalesce(CAST(:limit AS BIGINT), 5)
),
snapshots AS (
    SELECT instance, 'engine_stats' AS source, ts, CAST(NULL AS VARCHAR) AS phase, running, waiting,
           kv_usage_pct
    FROM engine_stats
    WHERE ts IS NOT NULL
    UNION ALL
    SELECT instance, 'batch_step', ts, phase, batch_size, queued, 100.0 * token_usage
    FROM batch_step
    WHERE ts IS NOT NULL
)
SELECT s.slow_rank, s.request_key, s.run_id, s.instance, s.client_e2e_ms, s.dominant,
       s.request_start_ts, s.request_end_ts, n.source, n.ts,
       epoch_ms(n.ts) - epoch_ms(s.request_start_ts) AS offset_ms,
       n.ts BETWEEN s.request_start_ts AND s.request_end_ts AS during_request,
       n.phase, n.running, n.waiting, n.kv_usage_pct
FROM slow s
CROSS JOIN settings t
JOIN snapshots n
  ON n.instance = s.instance
 AND n.ts >= s.request_start_ts - t.before
 AND n.ts <= s.request_end_ts + t.after
ORDER BY s.slow_rank, n.ts, n.source
