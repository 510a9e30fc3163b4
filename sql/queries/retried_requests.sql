-- queries/retried_requests: which request keys were seen more than once, on the client or the server side (retries, n > 1 children, repeated records)?
-- params:  :kind (VARCHAR, client_retry | server_retry | multi_record; default all)
-- returns: kind, request_key, client_rows, client_first_start_ts, client_last_start_ts,
--          server_arrivals, server_timing_rows, server_aborts, instances, attributed_rows
--
-- client_retry: the client file has the key more than once (the client retried with the same ID).
-- server_retry: the server saw the key arrive more than once (request_arrived), or aborted it and still
-- has a record of it: a retry the client may not have recorded. multi_record: more than one
-- request_timing row of one source_kind with at most one arrival (n > 1 children, two instances,
-- the same file ingested twice). A key can be of several kinds; the first in this order is shown.
-- Never double-counted: a key the client sent twice is 'duplicate' in request_attribution and not
-- attributed (attributed_rows 0); a server retry is attributed once when its final attempt can be
-- told apart (sql/attribution/per_request.sql, retries; attributed_rows 1), else it is 'duplicate'
-- too. An aborted key with a single arrival and a single record (the aborted attempt left no record,
-- the retry did) is attributed, once; it is listed for review. Client rows with local IDs (never seen by the server) are left out.
WITH arrivals_once AS (
    -- one arrival logged by two files of one instance (vLLM's API server `Received request`, the
    -- engine's `Added request`: docs/formats/vllm-wild.md#added-request) counts once: a row of
    -- another file with the same key up to 2 s after an earlier row is its echo and left out
    SELECT a.*, a.rowid AS arrival_rowid
    FROM request_arrived a
    WHERE NOT EXISTS (
        SELECT 1 FROM request_arrived e
        WHERE e.request_key = a.request_key AND e.instance = a.instance
          AND e.source_path <> a.source_path
          AND e.ts <= a.ts AND a.ts <= e.ts + INTERVAL 2 SECOND
          AND (e.ts < a.ts OR e.source_path < a.source_path))
),
client AS (
    SELECT request_key, count(*) AS client_rows, min(start_ts) AS client_first_start_ts,
           max(start_ts) AS client_last_start_ts
    FROM client_timing
    WHERE coalesce(id_kind, 'sent') <> 'local'
    GROUP BY request_key
),
arrivals AS (
    SELECT request_key, count(*) AS server_arrivals, string_agg(DISTINCT instance, ',') AS instances
    FROM arrivals_once
    GROUP BY request_key
),
timings AS (
    SELECT request_key, count(*) AS server_timing_rows, max(kind_rows) AS kind_rows,
           string_agg(DISTINCT instance, ',') AS instances
    FROM (SELECT request_key, instance,
                 -- TensorRT-LLM's own request IDs repeat on every instance (docs/formats/trtllm.md#request-ids)
                 count(*) OVER (PARTITION BY request_key, source_kind,
                                CASE WHEN source_kind IN ('perf_metrics', 'perf_time_events')
                                     THEN instance END) AS kind_rows
          FROM request_timing)
    GROUP BY request_key
),
aborts AS (
    SELECT request_key, count(*) AS server_aborts FROM request_aborted GROUP BY request_key
),
keys AS (
    SELECT request_key FROM client WHERE client_rows > 1
    UNION
    SELECT request_key FROM arrivals WHERE server_arrivals > 1
    UNION
    SELECT request_key FROM timings WHERE kind_rows > 1
    UNION
    SELECT t.request_key FROM timings t JOIN aborts b USING (request_key)
),
classified AS (
    SELECT k.request_key,
           CASE WHEN coalesce(c.client_rows, 0) > 1 THEN 'client_retry'
                WHEN coalesce(a.server_arrivals, 0) > 1 OR coalesce(b.server_aborts, 0) > 0
                    THEN 'server_retry'
                ELSE 'multi_record' END AS kind,
           coalesce(c.client_rows, 0) AS client_rows, c.client_first_start_ts,
           c.client_last_start_ts, coalesce(a.server_arrivals, 0) AS server_arrivals,
           coalesce(t.server_timing_rows, 0) AS server_timing_rows,
           coalesce(b.server_aborts, 0) AS server_aborts,
           coalesce(t.instances, a.instances) AS instances,
           (SELECT count(*) FROM request_attribution r
             WHERE r.request_key = k.request_key AND r.included) AS attributed_rows
    FROM keys k
    LEFT JOIN client c USING (request_key)
    LEFT JOIN arrivals a USING (request_key)
    LEFT JOIN timings t USING (request_key)
    LEFT JOIN aborts b USING (request_key)
)
SELECT kind, request_key, client_rows, client_first_start_ts, client_last_start_ts,
       server_arrivals, server_timing_rows, server_aborts, instances, attributed_rows
FROM classified
WHERE CAST(:kind AS VARCHAR) IS NULL OR kind = CAST(:kind AS VARCHAR)
ORDER BY kind, request_key
