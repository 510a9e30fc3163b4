-- attribution/data_quality: how far can the attribution be trusted? Join, duplicate, suspect, warm-up and reject counts in one row.
-- params:  none
-- returns: client_rows, client_ok_rows, warmup_rows, client_error_rows, matched_rows,
--          arrival_only_rows, client_only_rows, duplicate_rows, duplicate_client_keys,
--          duplicate_server_keys, suspect_rows, incomplete_rows, derived_rows, token_mismatch_rows,
--          client_queue_rows, included_rows, server_timing_keys, server_arrival_keys, server_only_keys,
--          client_rejects, server_rejects, join_rate
--
-- join_rate = client rows with any server record (matched, arrival_only or duplicate) / client rows;
-- NULL when there are no client rows. server_only_keys: keys in request_timing or request_arrived that
-- no client row has (other tenants, health checks, or a client file not loaded). Client rejects are
-- the rejects rows with engine 'client'. Reads request_attribution: run the attribution first.
WITH attribution AS (
    SELECT count(*) AS client_rows,
           count(*) FILTER (WHERE status = 'ok' AND NOT warmup) AS client_ok_rows,
           count(*) FILTER (WHERE warmup) AS warmup_rows,
           count(*) FILTER (WHERE status <> 'ok') AS client_error_rows,
           count(*) FILTER (WHERE join_status = 'matched') AS matched_rows,
           count(*) FILTER (WHERE join_status = 'arrival_only') AS arrival_only_rows,
           count(*) FILTER (WHERE join_status = 'client_only') AS client_only_rows,
           count(*) FILTER (WHERE join_status = 'duplicate') AS duplicate_rows,
           count(DISTINCT request_key) FILTER (WHERE client_rows > 1) AS duplicate_client_keys,
           count(*) FILTER (WHERE suspect) AS suspect_rows,
           count(*) FILTER (WHERE exclusion = 'incomplete timing') AS incomplete_rows,
           count(*) FILTER (WHERE server_derived) AS derived_rows,
           count(*) FILTER (WHERE token_mismatch) AS token_mismatch_rows,
           count(*) FILTER (WHERE client_queue_recorded) AS client_queue_rows,
           count(*) FILTER (WHERE included) AS included_rows,
           CAST(count(*) FILTER (WHERE join_status <> 'client_only') AS DOUBLE)
               / nullif(count(*), 0) AS join_rate
    FROM request_attribution
),
timing_keys AS (
    SELECT request_key, max(kind_rows) > 1 AS duplicate
    FROM (SELECT request_key, count(*) AS kind_rows FROM request_timing GROUP BY request_key, source_kind)
    GROUP BY request_key
),
server_keys AS (
    SELECT request_key FROM request_timing
    UNION
    SELECT request_key FROM request_arrived
)
SELECT a.client_rows, a.client_ok_rows, a.warmup_rows, a.client_error_rows, a.matched_rows,
       a.arrival_only_rows, a.client_only_rows, a.duplicate_rows, a.duplicate_client_keys,
       (SELECT count(*) FROM timing_keys WHERE duplicate) AS duplicate_server_keys,
       a.suspect_rows, a.incomplete_rows, a.derived_rows, a.token_mismatch_rows, a.client_queue_rows,
       a.included_rows,
       (SELECT count(*) FROM timing_keys) AS server_timing_keys,
       (SELECT count(DISTINCT request_key) FROM request_arrived) AS server_arrival_keys,
       (SELECT count(*) FROM server_keys k
         WHERE NOT EXISTS (SELECT 1 FROM client_timing c WHERE c.request_key = k.request_key))
           AS server_only_keys,
       (SELECT count(*) FROM rejects WHERE engine = 'client') AS client_rejects,
       (SELECT count(*) FROM rejects WHERE engine IS DISTINCT FROM 'client') AS server_rejects,
       a.join_rate
FROM attribution a
