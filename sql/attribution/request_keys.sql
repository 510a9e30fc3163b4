-- attribution/request_keys: per request key, what clock_offsets.sql and per_request.sql need to know of it, in one aggregate over the keys: a temporary table both statements read in correlate's transaction.
-- params:  none
-- returns: nothing; creates (or replaces) the temporary table attribution_keys, one row per
--          request_key of client_timing (ID not local), request_timing, request_arrived (its echoes
--          left out) and request_aborted. Attributor creates it before clock_offsets.sql and again
--          before per_request.sql when an incremental round shadows the inputs with the rows of
--          the keys it attributes again; it drops it at the end of the transaction.
--
-- Why one table (docs/design.md#attribution-key-table): both statements used to aggregate the same
-- VARCHAR keys on their own, five hash aggregates of ~1 M groups per million requests (clock_offsets:
-- keys sent once, timing arrivals, text arrivals, retried keys; per_request: key_stats), and both
-- computed the arrival-echo rule. One aggregate over the union of the inputs gives every count and
-- the rowid of each one-row case; the statements join the inputs back by rowid (an integer).
--
-- P/D requests (docs/formats/pd.md#attribution): the decode half of a pair in pd_halves
-- (pd_halves.sql, made first) and the decode server's arrivals of its key are left out, so such a
-- request counts one record and one arrival, those of its prefill server.
--
-- Columns (counts are per key over every instance; rowids name the lowest row, the only one when
-- its count is 1; every aggregate is on integers, the key is the only VARCHAR):
--   per_request.sql key_stats: client_rows, shadows_gateway, gateway_rows, gateway_id, record_rows,
--     arrival_rows, aborted, client_id, record_id, arrival_id (definitions there; paired is added
--     there from request_matches, which --match heuristic fills after this table is made)
--   clock_offsets.sql: clock_client_rows / clock_client_id (client rows not local with a start
--     time, gateway rows included), timed_rows / timed_id (request_timing rows of any kind with an
--     arrival_ts); the one arrival of a key is arrival_id (arrival_rows = 1)
CREATE OR REPLACE TEMP TABLE attribution_keys AS
WITH echo_instances AS (
    -- an echo needs a second file of the same instance: the rule below runs only on the arrivals
    -- of instances logged by several files (a hash aggregate of a few groups, not one per request)
    SELECT instance FROM request_arrived GROUP BY instance HAVING min(source_path) <> max(source_path)
),
arrivals_once AS (
    -- one arrival logged by two files of one instance (vLLM's API server `Received request`, the
    -- engine's `Added request`: docs/formats/vllm-wild.md#added-request) counts once: a row of
    -- another file with the same key up to 2 s after an earlier row is its echo and left out
    SELECT a.request_key, a.rowid AS arrival_rowid
    FROM request_arrived a
    WHERE a.instance NOT IN (SELECT instance FROM echo_instances) -- instance is NOT NULL
      AND NOT EXISTS (SELECT 1 FROM pd_halves h
                      WHERE h.request_key = a.request_key AND h.decode_instance = a.instance)
    UNION ALL
    SELECT a.request_key, a.rowid AS arrival_rowid
    FROM request_arrived a
    WHERE a.instance IN (SELECT instance FROM echo_instances)
      AND NOT EXISTS (SELECT 1 FROM pd_halves h
                      WHERE h.request_key = a.request_key AND h.decode_instance = a.instance)
      AND NOT EXISTS (
        SELECT 1 FROM request_arrived e
        WHERE e.request_key = a.request_key AND e.instance = a.instance
          AND e.source_path <> a.source_path
          AND e.ts <= a.ts AND a.ts <= e.ts + INTERVAL 2 SECOND
          AND (e.ts < a.ts OR e.source_path < a.source_path))
),
key_rows AS (
    -- one rowid column per kind of row and condition: plain counts and minimums below, no FILTER
    SELECT request_key,
           CASE WHEN NOT coalesce(vantage = 'gateway', false) THEN rowid END AS sent_id,
           CASE WHEN coalesce(vantage = 'gateway', false) THEN rowid END AS gw_id,
           CASE WHEN start_ts IS NOT NULL OR start_mono_s IS NOT NULL THEN rowid END AS clocked_id
    FROM client_timing
    WHERE coalesce(id_kind, 'sent') <> 'local'
    UNION ALL BY NAME
    -- records of the kinds a client's key names (not perf_metrics / perf_time_events) for
    -- per_request; records of every kind with an arrival time for the clock offsets
    SELECT request_key,
           CASE WHEN source_kind NOT IN ('perf_metrics', 'perf_time_events') THEN rowid END
               AS record_id,
           CASE WHEN arrival_ts IS NOT NULL THEN rowid END AS timed_id
    FROM request_timing
    WHERE (source_kind NOT IN ('perf_metrics', 'perf_time_events') OR arrival_ts IS NOT NULL)
      AND rowid NOT IN (SELECT decode_record_id FROM pd_halves)
    UNION ALL BY NAME
    SELECT request_key, arrival_rowid AS arrival_id FROM arrivals_once
    UNION ALL BY NAME
    SELECT request_key, true AS aborted FROM request_aborted
),
counted AS (
    SELECT request_key, count(sent_id) AS sent_rows, min(sent_id) AS sent_id,
           count(gw_id) AS gateway_rows, min(gw_id) AS gateway_id,
           count(clocked_id) AS clock_client_rows, min(clocked_id) AS clock_client_id,
           count(record_id) AS record_rows, min(record_id) AS record_id,
           count(arrival_id) AS arrival_rows, min(arrival_id) AS arrival_id,
           coalesce(bool_or(aborted), false) AS aborted,
           count(timed_id) AS timed_rows, min(timed_id) AS timed_id
    FROM key_rows
    GROUP BY request_key
)
-- gateway rows count as the key's client rows only when no client row has the key
SELECT request_key,
       CASE WHEN sent_rows > 0 THEN sent_rows ELSE gateway_rows END AS client_rows,
       sent_rows > 0 AND gateway_rows > 0 AS shadows_gateway, gateway_rows, gateway_id,
       record_rows, arrival_rows, aborted, coalesce(sent_id, gateway_id) AS client_id, record_id,
       arrival_id, clock_client_rows, clock_client_id, timed_rows, timed_id
FROM counted
