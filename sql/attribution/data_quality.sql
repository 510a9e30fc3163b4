-- attribution/data_quality: how far can the attribution be trusted? Join, duplicate, suspect, warm-up and reject counts in one row.
-- params:  none
-- returns: client_rows, client_ok_rows, warmup_rows, client_error_rows, matched_rows,
--          arrival_only_rows, client_only_rows, duplicate_rows, duplicate_client_keys,
--          duplicate_server_keys, suspect_rows, incomplete_rows, derived_rows, token_mismatch_rows,
--          client_queue_rows, included_rows, server_timing_keys, server_arrival_keys, server_only_keys,
--          client_rejects, server_rejects, join_rate, heuristic_rows, ambiguous_rows,
--          unjoinable_rows, server_retried_keys, clock_estimates, clock_flagged, zone_shifts,
--          retried_attributed_rows, clock_time_series
--
-- join_rate = client rows with any server record (matched, arrival_only or duplicate) / client rows;
-- NULL when there are no client rows. Server-side counts are per server request identity
-- (per_request.sql "identity"): a key some client sent is one request on every instance; any other
-- key is the engine's own and counts once per instance (TensorRT-LLM's counters repeat on every
-- server, docs/formats/trtllm.md#request-ids). server_only_keys: identities in request_timing or
-- request_arrived that no client row has and no heuristic pair took (other tenants, health checks,
-- a client file not loaded, or --match id on an engine that ignores client IDs).
-- duplicate_server_keys: identities with more than one completed (not aborted) record of one
-- source_kind (n > 1 children, a file loaded twice, a retry that completed twice). Client rejects are
-- the rejects rows with engine 'client'. heuristic_rows: paired by --match heuristic (time window and
-- token counts, not by ID); ambiguous_rows: of those, paired without times among several candidates
-- (left out of aggregates). unjoinable_rows: client rows whose ID the server never saw (id_kind local)
-- and that no heuristic pairing matched. server_retried_keys: keys the server saw arrive more than once
-- (a client retry with the same ID). retried_attributed_rows: client rows attributed (matched or
-- heuristic) although the server saw their request retried: the final attempt's record was told
-- apart (attempt_rule). clock_estimates, clock_flagged, zone_shifts: rows of clock_offsets, those
-- with a flag, those whose offset is a whole number of quarter hours; clock_time_series: those
-- aligned by time series (a steady server clock without ID pairs).
-- Reads request_attribution: run the attribution first.
WITH echo_instances AS (
    -- an echo needs a second file of the same instance: the rule below runs only on the arrivals
    -- of instances logged by several files (as in request_keys.sql)
    SELECT instance FROM request_arrived GROUP BY instance HAVING min(source_path) <> max(source_path)
),
arrivals_once AS (
    -- one arrival logged by two files of one instance (vLLM's API server `Received request`, the
    -- engine's `Added request`: docs/formats/vllm-wild.md#added-request) counts once: a row of
    -- another file with the same key up to 2 s after an earlier row is its echo and left out
    SELECT a.request_key, a.instance
    FROM request_arrived a
    WHERE a.instance NOT IN (SELECT instance FROM echo_instances) -- instance is NOT NULL
    UNION ALL
    SELECT a.request_key, a.instance
    FROM request_arrived a
    WHERE a.instance IN (SELECT instance FROM echo_instances)
      AND NOT EXISTS (
        SELECT 1 FROM request_arrived e
        WHERE e.request_key = a.request_key AND e.instance = a.instance
          AND e.source_path <> a.source_path
          AND e.ts <= a.ts AND a.ts <= e.ts + INTERVAL 2 SECOND
          AND (e.ts < a.ts OR e.source_path < a.source_path))
),
attribution AS (
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
               / nullif(count(*), 0) AS join_rate,
           count(*) FILTER (WHERE join_status = 'heuristic') AS heuristic_rows,
           count(*) FILTER (WHERE exclusion = 'ambiguous match') AS ambiguous_rows,
           count(*) FILTER (WHERE id_kind = 'local' AND join_status = 'client_only')
               AS unjoinable_rows,
           count(*) FILTER (WHERE retried AND join_status IN ('matched', 'heuristic'))
               AS retried_attributed_rows
    FROM request_attribution
),
clocks AS (
    SELECT count(*) AS clock_estimates,
           count(*) FILTER (WHERE flag IS NOT NULL) AS clock_flagged,
           count(*) FILTER (WHERE zone_shift_minutes IS NOT NULL) AS zone_shifts,
           count(*) FILTER (WHERE method = 'time_series') AS clock_time_series
    FROM clock_offsets
),
client_keys AS (
    SELECT DISTINCT request_key FROM client_timing WHERE coalesce(id_kind, 'sent') <> 'local'
    UNION
    -- the servers' keys a proxy access log maps client keys to (attribution/proxy_keys)
    SELECT p.upstream_key FROM proxy_requests p
    WHERE p.client_key IN (SELECT request_key FROM client_timing)
    UNION
    SELECT p.upstream_key FROM proxy_request p
    WHERE p.client_key IN (SELECT request_key FROM client_timing)
    UNION
    -- SGLang P/D records keyed by their bootstrap_room whose rid a client sent
    SELECT t.request_key FROM request_timing t
    WHERE t.request_key LIKE 'bootstrap_room-%'
      AND t.request_id IN (SELECT request_key FROM client_timing)
),
pd_decode AS (
    -- the decode server of each attributed prefill/decode request: its record and arrival there are
    -- the same request's second half, not a duplicate (docs/formats/pd.md#attribution)
    -- (a pair --match heuristic made names the server's key in request_matches: TensorRT-LLM)
    SELECT DISTINCT request_key, decode_instance FROM request_attribution
    WHERE decode_instance IS NOT NULL
    UNION
    SELECT DISTINCT m.server_request_key, r.decode_instance
    FROM request_attribution r
    JOIN request_matches m
      ON m.run_id = r.run_id AND m.client_source_path = r.client_source_path
     AND m.client_source_line = r.client_source_line
    WHERE r.decode_instance IS NOT NULL
),
timing_ids AS (
    -- scope NULL: the client's key, one request on every instance; else the engine's own, per instance
    SELECT CASE WHEN t.source_kind NOT IN ('perf_metrics', 'perf_time_events')
                     AND k.request_key IS NOT NULL THEN NULL ELSE t.instance END AS scope,
           t.request_key, t.source_kind,
           lower(coalesce(t.finish_reason, '')) IN ('abort', 'aborted', 'cancelled', 'canceled')
               AS aborted
    FROM request_timing t
    LEFT JOIN client_keys k ON k.request_key = t.request_key
    WHERE NOT EXISTS (SELECT 1 FROM pd_decode p
                      WHERE p.request_key = t.request_key AND p.decode_instance = t.instance)
),
arrival_ids AS (
    SELECT CASE WHEN k.request_key IS NOT NULL THEN NULL ELSE a.instance END AS scope,
           a.request_key
    FROM arrivals_once a
    LEFT JOIN client_keys k ON k.request_key = a.request_key
    WHERE NOT EXISTS (SELECT 1 FROM pd_decode p
                      WHERE p.request_key = a.request_key AND p.decode_instance = a.instance)
),
timing_keys AS (
    SELECT scope, request_key, max(completed_rows) > 1 AS duplicate
    FROM (SELECT scope, request_key, count(*) FILTER (WHERE NOT aborted) AS completed_rows
          FROM timing_ids GROUP BY scope, request_key, source_kind)
    GROUP BY scope, request_key
),
server_keys AS (
    SELECT scope, request_key FROM timing_ids
    UNION
    SELECT scope, request_key FROM arrival_ids
)
SELECT a.client_rows, a.client_ok_rows, a.warmup_rows, a.client_error_rows, a.matched_rows,
       a.arrival_only_rows, a.client_only_rows, a.duplicate_rows, a.duplicate_client_keys,
       (SELECT count(*) FROM timing_keys WHERE duplicate) AS duplicate_server_keys,
       a.suspect_rows, a.incomplete_rows, a.derived_rows, a.token_mismatch_rows, a.client_queue_rows,
       a.included_rows,
       (SELECT count(*) FROM timing_keys) AS server_timing_keys,
       (SELECT count(DISTINCT request_key) FROM request_arrived) AS server_arrival_keys,
       (SELECT count(*) FROM server_keys k
         WHERE k.scope IS NOT NULL
           AND NOT EXISTS (SELECT 1 FROM request_matches m
                           WHERE m.server_request_key = k.request_key
                             AND coalesce(m.server_instance, k.scope) = k.scope))
           AS server_only_keys,
       (SELECT count(*) FROM rejects WHERE engine = 'client') AS client_rejects,
       (SELECT count(*) FROM rejects WHERE engine IS DISTINCT FROM 'client') AS server_rejects,
       a.join_rate, a.heuristic_rows, a.ambiguous_rows, a.unjoinable_rows,
       (SELECT count(*) FROM (SELECT scope, request_key FROM arrival_ids GROUP BY ALL
                              HAVING count(*) > 1)) AS server_retried_keys,
       k.clock_estimates, k.clock_flagged, k.zone_shifts, a.retried_attributed_rows,
       k.clock_time_series
FROM attribution a
CROSS JOIN clocks k
