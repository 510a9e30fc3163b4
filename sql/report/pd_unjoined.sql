-- report/pd_unjoined: did a proxy in front of prefill/decode servers rewrite the client's request ID, so that client rows cannot join the servers' records?
-- params:  none
-- returns: unjoined_client_rows, orphan_pd_keys, proxy_rows (one row)
--
-- docs/formats/pd.md#proxy-access-log: vLLM's example proxy sends both servers a uuid of its own,
-- so the client's ID is on no server. unjoined_client_rows: client rows (not local IDs, not
-- gateway rows) whose request_key no request_timing or request_arrived row has; orphan_pd_keys:
-- request keys with request_timing records on two or more instances, one of them a decode server
-- (one that logged kv_transfer rows of side 'decode'), that no client row has: the servers' halves
-- of requests whose client row did not join; proxy_rows: lines of proxy access logs loaded
-- (proxy_requests, proxy_request). Both counts above 0 with no proxy log loaded: the IDs were rewritten and the
-- proxy's log is missing; with one loaded: the log does not name those clients' IDs.
WITH server_keys AS (
    SELECT request_key FROM request_timing
    UNION
    SELECT request_key FROM request_arrived
),
client_rows AS (
    SELECT request_key
    FROM client_timing
    WHERE coalesce(id_kind, 'sent') <> 'local' AND coalesce(vantage, 'client') <> 'gateway'
),
proxy_lines AS (
    SELECT client_key, upstream_key FROM proxy_requests
    UNION ALL
    SELECT client_key, upstream_key FROM proxy_request
),
key_maps AS (
    -- the proxy's lines, and SGLang P/D records keyed by their bootstrap_room (their rid)
    SELECT client_key, upstream_key FROM proxy_lines
    UNION ALL
    SELECT request_id, request_key FROM request_timing WHERE request_key LIKE 'bootstrap_room-%'
),
client_keys AS (
    -- a client row's key, or the servers' key a proxy access log maps it to
    -- (attribution/proxy_keys; any of its lines: the attribution takes the first)
    SELECT coalesce(
               (SELECT min(p.upstream_key) FROM key_maps p WHERE p.client_key = c.request_key),
               c.request_key) AS request_key
    FROM client_rows c
),
decode_servers AS (
    SELECT DISTINCT instance FROM kv_transfer WHERE side = 'decode'
),
pd_keys AS (
    SELECT request_key
    FROM request_timing
    GROUP BY request_key
    HAVING count(DISTINCT instance) >= 2
       AND bool_or(instance IN (SELECT instance FROM decode_servers))
)
SELECT (SELECT count(*) FROM client_keys c
        WHERE c.request_key NOT IN (SELECT request_key FROM server_keys)) AS unjoined_client_rows,
       (SELECT count(*) FROM pd_keys p
        WHERE p.request_key NOT IN (SELECT request_key FROM client_keys)) AS orphan_pd_keys,
       (SELECT count(*) FROM proxy_lines) AS proxy_rows
