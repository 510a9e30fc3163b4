-- queries/unmatched_requests: which requests could not be paired? Client-only, server-only, arrival-only and duplicate-key requests (retries among them), with the reason.
-- params:  :kind (VARCHAR, client_only | server_only | arrival_only | duplicate; default all)
-- returns: kind, request_key, request_id, run_id, engine, instance, source_path, source_line,
--          client_rows, server_rows, status, reason
--
-- client_only: the server never logged the key (failed or retried requests, wrong ID mapping).
-- server_only: a server key no client row has (other tenants, health checks), one row per key from
-- request_timing or request_arrived, per instance (an engine's own IDs, such as TensorRT-LLM's
-- perf_metrics counters, repeat on every instance). arrival_only: known only from text-log arrivals,
-- no durations. duplicate: a key the client sent more than once, or whose server records or arrivals
-- cannot be told apart as one final attempt (sql/attribution/per_request.sql, retries); never
-- attributed. A server retry whose final attempt is told apart is attributed once and is not listed
-- here (queries/retried_requests lists every retry). Rows paired by --match heuristic count as
-- paired; the (instance, key) they took is not server_only.
-- status: the client's status (NULL for server_only). reason: client_only 'client error: <status>'
-- (failed or timed out before the server logged it), 'id never sent' (a local ID: pair it with
-- --match heuristic) or 'no server record'; server_only 'no client row'; arrival_only 'text-log
-- arrival only'; duplicate 'retry: client rows' (the client retried with the same ID), 'retry: server
-- arrivals' (the server saw the ID arrive twice, e.g. after a client timeout) or 'server records'
-- (n > 1 children, two instances, a file ingested twice), joined with ', ' when several apply.
-- Client kinds read request_attribution: run the attribution first.
WITH client_side AS (
    SELECT join_status AS kind, request_key, request_id, run_id, engine, instance,
           client_source_path AS source_path, client_source_line AS source_line, client_rows,
           server_rows, status,
           CASE join_status
               WHEN 'client_only' THEN
                   CASE WHEN status <> 'ok' THEN 'client error: ' || status
                        WHEN id_kind = 'local' THEN 'id never sent'
                        ELSE 'no server record' END
               WHEN 'arrival_only' THEN 'text-log arrival only'
               WHEN 'duplicate' THEN
                   replace(replace(coalesce(duplicate_reason, 'server records'),
                                   'client rows', 'retry: client rows'),
                           'server arrivals', 'retry: server arrivals')
           END AS reason
    FROM request_attribution
    WHERE join_status NOT IN ('matched', 'heuristic')
),
server_records AS (
    SELECT request_key, request_id, engine, instance, source_path, source_line FROM request_timing
    UNION ALL
    SELECT request_key, request_id, engine, instance, source_path, source_line FROM request_arrived
),
server_side AS (
    SELECT 'server_only' AS kind, request_key, request_id, CAST(NULL AS VARCHAR) AS run_id, engine,
           instance, source_path, source_line, 0 AS client_rows,
           count(*) OVER (PARTITION BY instance, request_key) AS server_rows,
           CAST(NULL AS VARCHAR) AS status, 'no client row' AS reason
    FROM server_records r
    WHERE NOT EXISTS (SELECT 1 FROM client_timing c WHERE c.request_key = r.request_key)
      AND NOT EXISTS (SELECT 1 FROM request_matches m
                      WHERE m.server_request_key = r.request_key
                        AND coalesce(m.server_instance, r.instance) = r.instance)
    QUALIFY row_number() OVER (PARTITION BY instance, request_key
                               ORDER BY source_path, source_line) = 1
)
SELECT kind, request_key, request_id, run_id, engine, instance, source_path, source_line,
       client_rows, server_rows, status, reason
FROM (SELECT * FROM client_side UNION ALL SELECT * FROM server_side)
WHERE CAST(:kind AS VARCHAR) IS NULL OR kind = CAST(:kind AS VARCHAR)
ORDER BY kind, request_key, source_path, source_line
