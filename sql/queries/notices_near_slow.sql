-- queries/notices_near_slow: did errors, preemptions, OOMs or aborts on the server coincide with the slowest requests?
-- params:  :limit (INTEGER, default 10: slowest requests), :run_id (VARCHAR, default every run),
--          :before_ms (DOUBLE, default 5000), :after_ms (DOUBLE, default 1000),
--          :kinds (VARCHAR, default error,oom,preemption,warning,abort)
-- returns: slow_rank, request_key, run_id, instance, client_e2e_ms, dominant, request_start_ts,
--          request_end_ts, notice_ts, offset_ms, during_request, level, kind, message,
--          source_path, source_line
--
-- The :limit slowest paired requests (status ok, not warm-up, by client_e2e_ms), placed on the server
-- clock (aligned_start_ts, see attribution/clock_offsets; end = start + client_e2e_ms), and on their
-- instance every server_notice of the given kinds (comma-separated: error, oom, preemption,
-- warning, startup, config) and every request_aborted (kind abort: a timeout or a client giving up,
-- message 'request <id> aborted[: reason]') from :before_ms before the start to :after_ms after the
-- end. offset_ms = notice time - request start. Only requests with at least one notice are listed.
-- Text logs stamp whole seconds (vLLM), so a notice can seem up to 1 s early.
WITH settings AS (
    SELECT CAST(:run_id AS VARCHAR) AS only_run,
           to_microseconds(CAST(round(coalesce(CAST(:before_ms AS DOUBLE), 5000.0) * 1000) AS BIGINT))
               AS before,
           to_microseconds(CAST(round(coalesce(CAST(:after_ms AS DOUBLE), 1000.0) * 1000) AS BIGINT))
               AS after,
           string_split(replace(coalesce(CAST(:kinds AS VARCHAR),
                                         'error,oom,preemption,warning,abort'), ' ', ''), ',')
               AS kinds
),
top AS (
    -- ORDER BY ... LIMIT is a top-N (a heap of :limit rows); a row_number() over every request
    -- sorted all of them (71 s at 10 M requests on a loaded 2-core machine)
    SELECT a.request_key, a.run_id, a.instance, a.client_e2e_ms, a.dominant, a.aligned_start_ts,
           a.client_source_path, a.client_source_line
    FROM request_attribution a
    CROSS JOIN settings s
    WHERE a.status = 'ok' AND NOT a.warmup AND a.join_status IN ('matched', 'heuristic')
      AND a.aligned_start_ts IS NOT NULL AND a.client_e2e_ms IS NOT NULL
      AND (s.only_run IS NULL OR a.run_id = s.only_run)
    ORDER BY a.client_e2e_ms DESC NULLS LAST, a.request_key, a.client_source_path,
             a.client_source_line
    LIMIT coalesce(CAST(:limit AS BIGINT), 10)
),
slow AS (
    SELECT row_number() OVER (ORDER BY a.client_e2e_ms DESC NULLS LAST, a.request_key,
                                       a.client_source_path, a.client_source_line) AS slow_rank,
           a.request_key, a.run_id, a.instance, a.client_e2e_ms, a.dominant,
           a.aligned_start_ts AS request_start_ts,
           a.aligned_start_ts + to_microseconds(CAST(round(a.client_e2e_ms * 1000) AS BIGINT))
               AS request_end_ts
    FROM top a
),
notices AS (
    SELECT instance, ts, level, kind, message, source_path, source_line
    FROM server_notice
    WHERE ts IS NOT NULL
    UNION ALL
    SELECT instance, ts, 'INFO', 'abort',
           'request ' || request_id || ' aborted' || coalesce(': ' || reason, ''), source_path,
           source_line
    FROM request_aborted
    WHERE ts IS NOT NULL
)
SELECT s.slow_rank, s.request_key, s.run_id, s.instance, s.client_e2e_ms, s.dominant,
       s.request_start_ts, s.request_end_ts, n.ts AS notice_ts,
       epoch_ms(n.ts) - epoch_ms(s.request_start_ts) AS offset_ms,
       n.ts BETWEEN s.request_start_ts AND s.request_end_ts AS during_request,
       n.level, n.kind, n.message, n.source_path, n.source_line
FROM slow s
CROSS JOIN settings t
JOIN notices n
  ON n.instance = s.instance
 AND n.ts >= s.request_start_ts - t.before
 AND n.ts <= s.request_end_ts + t.after
 AND list_contains(t.kinds, n.kind)
ORDER BY s.slow_rank, n.ts, n.source_path, n.source_line
