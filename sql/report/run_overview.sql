-- report/run_overview: which runs does the database hold, what did each load and measure, and how much of it could be attributed?
-- params:  none
-- returns: run_id, kind, started_ts, command, params, client_formats, files, requests, ok_requests,
--          warmup_requests, error_requests, attributed_requests, concurrency_levels, engines,
--          instances, first_start_ts, last_end_ts
--
-- One row per run of the runs table (clients loads, correlate and report invocations), oldest first.
-- Client columns count its client_timing rows through request_attribution (run the attribution
-- first): ok = status ok and not warm-up; attributed = included. concurrency_levels, engines and
-- instances are comma-separated, sorted (engines and instances of the paired requests only).
-- first_start_ts / last_end_ts: the client's first start and last end on the server clock
-- (aligned_start_ts), else as the client logged them.
WITH requests AS (
    SELECT run_id,
           count(*) AS requests,
           count(*) FILTER (WHERE status = 'ok' AND NOT warmup) AS ok_requests,
           count(*) FILTER (WHERE warmup) AS warmup_requests,
           count(*) FILTER (WHERE status <> 'ok') AS error_requests,
           count(*) FILTER (WHERE included) AS attributed_requests,
           string_agg(DISTINCT engine, ',' ORDER BY engine) AS engines,
           string_agg(DISTINCT instance, ',' ORDER BY instance) AS instances,
           string_agg(DISTINCT client_format, ',' ORDER BY client_format) AS client_formats,
           min(coalesce(aligned_start_ts, start_ts)) AS first_start_ts,
           max(coalesce(aligned_start_ts, start_ts)
               + to_microseconds(CAST(round(coalesce(client_e2e_ms, 0) * 1000) AS BIGINT)))
               AS last_end_ts
    FROM request_attribution
    GROUP BY run_id
),
levels AS (
    SELECT run_id, string_agg(CAST(concurrency AS VARCHAR), ',' ORDER BY concurrency) AS levels
    FROM (SELECT DISTINCT run_id, concurrency FROM request_attribution WHERE concurrency IS NOT NULL)
    GROUP BY run_id
),
files AS (
    SELECT run_id, count(*) AS files FROM run_files GROUP BY run_id
)
SELECT r.run_id, r.kind, r.started_ts, r.command, r.params, q.client_formats,
       coalesce(f.files, 0) AS files, coalesce(q.requests, 0) AS requests,
       coalesce(q.ok_requests, 0) AS ok_requests, coalesce(q.warmup_requests, 0) AS warmup_requests,
       coalesce(q.error_requests, 0) AS error_requests,
       coalesce(q.attributed_requests, 0) AS attributed_requests, l.levels AS concurrency_levels,
       q.engines, q.instances, q.first_start_ts, q.last_end_ts
FROM runs r
LEFT JOIN requests q ON q.run_id = r.run_id
LEFT JOIN levels l ON l.run_id = r.run_id
LEFT JOIN files f ON f.run_id = r.run_id
ORDER BY r.started_ts, r.run_id
