-- attribution/proxy_keys: the client rows as the attribution reads them when a proxy access log maps client IDs to the IDs the servers saw, as a temporary table that shadows client_timing in correlate's transaction.
-- params:  none
-- returns: nothing; creates (or replaces) the temporary table client_timing: every row of
--          main.client_timing in its order, with request_key replaced by the upstream_key of the
--          first proxy_requests or proxy_request line (by ts, then file and line) whose client_key it is. Gateway
--          rows and local IDs keep their key (a gateway in front of the proxy logs the client's
--          ID too). Attributor creates it only when either table has rows, before the key
--          table, and drops it before the transaction ends: the stored rows are never rewritten,
--          so the client file and the proxy log can be loaded in either order, by any path
--          (clients, ingest, the sinks), and a replaced log takes its mapping with it
--          (docs/formats/pd.md#proxy-access-log). SGLang P/D records keyed by their
--          bootstrap_room map their rid the same way (docs/formats/pd.md#sglang-request-ids).
CREATE OR REPLACE TEMP TABLE client_timing AS
WITH lines AS (
    -- loaded by clients (proxy_requests) or as events by ingest and the sinks (proxy_request)
    SELECT ts, source_path, source_line, client_key, upstream_key FROM main.proxy_requests
    UNION ALL
    SELECT ts, source_path, source_line, client_key, upstream_key FROM main.proxy_request
    UNION ALL
    -- SGLang P/D lines keyed by the router's bootstrap_room (docs/formats/pd.md#sglang-request-ids):
    -- a client that set a 32-hex rid sent the rid both servers logged as request_id
    SELECT ts, source_path, source_line, request_id AS client_key, request_key AS upstream_key
    FROM main.request_timing
    WHERE request_key LIKE 'bootstrap_room-%'
),
first_lines AS (
    SELECT client_key, upstream_key
    FROM lines
    WHERE client_key <> upstream_key
    QUALIFY row_number() OVER (PARTITION BY client_key
                               ORDER BY ts NULLS LAST, source_path, source_line) = 1
)
SELECT c.* REPLACE (
           CASE WHEN coalesce(c.vantage, 'client') <> 'gateway'
                     AND coalesce(c.id_kind, 'sent') <> 'local'
                THEN coalesce(m.upstream_key, c.request_key)
                ELSE c.request_key END AS request_key)
FROM main.client_timing c
LEFT JOIN first_lines m ON m.client_key = c.request_key
ORDER BY c.rowid
