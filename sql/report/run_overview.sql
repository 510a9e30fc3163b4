-- report/run_overview: which runs does the database hold, what did each load and measure, and how much of it could be attributed?
-- params:  none
-- returns: run_id, kind, started_ts, command, params, client_formats, files, requests, ok_requests,
--          warmup_requests, error_requests, attributed_requests, concurrency_levels, engines,
--          instances, first_start_ts, last_end_ts, vantage, gateway_split_requests,
--          gateway_view_requests, e2e_only_requests, client_gateway_p50_ms, client_gateway_p95_ms,
--          gateway_engine_p50_ms, gateway_engine_p95_ms
--
-- One row per run of the runs table (clients loads, correlate and report invocations), oldest first.
-- Client columns count its client_timing rows through request_attribution (run the attribution
-- first): ok = status ok and not warm-up; attributed = included. concurrency_levels, engines and
-- instances are comma-separated, sorted (engines and instances of the paired requests only).
-- first_start_ts / last_end_ts: the client's first start and last end on the server clock
-- (aligned_start_ts), else as the client logged them.
-- Vantage (docs/formats/gateways.md#three-vantage-points), over the attributed (included) rows:
-- vantage names the views they were attributed from, most rows first, separated by '; ':
-- client+gateway+engine (network split at a gateway), gateway+engine (production: the gateway's
-- rows stand in for the client), client+engine; ", end-to-end only" follows a view whose rows had
-- no first token (wrk, JMeter, gateways: timing_view e2e). The counts and the legs' P50/P95
-- (quantile_cont) are over the same rows; a leg is NULL where no row has it.
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
),
views AS (
    SELECT run_id,
           CASE vantage WHEN 'client+gateway' THEN 'client+gateway+engine'
                        WHEN 'gateway' THEN 'gateway+engine'
                        ELSE 'client+engine' END
           || CASE WHEN timing_view = 'e2e' THEN ', end-to-end only' ELSE '' END AS view,
           count(*) AS n
    FROM request_attribution
    WHERE included
    GROUP BY ALL
),
vantages AS (
    SELECT run_id, string_agg(view, '; ' ORDER BY n DESC, view) AS vantage
    FROM views
    GROUP BY run_id
),
legs AS (
    SELECT run_id,
           count(*) FILTER (WHERE vantage = 'client+gateway') AS gateway_split_requests,
           count(*) FILTER (WHERE vantage = 'gateway') AS gateway_view_requests,
           count(*) FILTER (WHERE timing_view = 'e2e') AS e2e_only_requests,
           quantile_cont(network_client_gateway_ms, 0.5) AS client_gateway_p50_ms,
           quantile_cont(network_client_gateway_ms, 0.95) AS client_gateway_p95_ms,
           quantile_cont(network_gateway_engine_ms, 0.5) AS gateway_engine_p50_ms,
           quantile_cont(network_gateway_engine_ms, 0.95) AS gateway_engine_p95_ms
    FROM request_attribution
    WHERE included
    GROUP BY run_id
)
SELECT r.run_id, r.kind, r.started_ts, r.command, r.params, q.client_formats,
       coalesce(f.files, 0) AS files, coalesce(q.requests, 0) AS requests,
       coalesce(q.ok_requests, 0) AS ok_requests, coalesce(q.warmup_requests, 0) AS warmup_requests,
       coalesce(q.error_requests, 0) AS error_requests,
       coalesce(q.attributed_requests, 0) AS attributed_requests, l.levels AS concurrency_levels,
       q.engines, q.instances, q.first_start_ts, q.last_end_ts, v.vantage,
       coalesce(g.gateway_split_requests, 0) AS gateway_split_requests,
       coalesce(g.gateway_view_requests, 0) AS gateway_view_requests,
       coalesce(g.e2e_only_requests, 0) AS e2e_only_requests,
       g.client_gateway_p50_ms, g.client_gateway_p95_ms, g.gateway_engine_p50_ms,
       g.gateway_engine_p95_ms
FROM runs r
LEFT JOIN requests q ON q.run_id = r.run_id
LEFT JOIN levels l ON l.run_id = r.run_id
LEFT JOIN files f ON f.run_id = r.run_id
LEFT JOIN vantages v ON v.run_id = r.run_id
LEFT JOIN legs g ON g.run_id = r.run_id
ORDER BY r.started_ts, r.run_id
