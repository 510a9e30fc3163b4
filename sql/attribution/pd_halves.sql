-- attribution/pd_halves: which requests were prefilled on one server and decoded on another, with the decode half's figures and the KV transfer, as a temporary table the key table and per_request.sql read in correlate's transaction.
-- params:  none
-- returns: nothing; creates (or replaces) the temporary table pd_halves, one row per P/D request
--          (docs/formats/pd.md#attribution): request_key, prefill_record_id and decode_record_id
--          (request_timing rowids as DuckDB resolves the name now: an incremental round's
--          shadowing table, else the stored one), decode_instance, kv_transfer_ms, decode_queue_ms,
--          decode_first_ms (the decode server's first step), decode_ms (its first scheduled → last
--          token), decode_output_tokens, kv_transfer_source. Attributor creates it before
--          request_keys.sql, every time it makes the key table, and drops it with it. Empty (and
--          cheap) when no server logged a KV transfer: a single-server run is attributed as before.
--
-- Rules (docs/formats/pd.md#attribution):
--   pair      a request_key with exactly two request_timing records, of one source_kind, on two
--             instances, at least one of which logged kv_transfer rows (a decode server). The
--             decode half is the record on such an instance that arrived last; the other is the
--             prefill half (the proxy sends to the prefill server first).
--   transfer  the estimate (docs/formats/pd.md#estimate, kv_transfer_source 'interval_estimate';
--             no parser emits a request's own transfer row yet): the decode server's mean transfer time over all its interval rows (sum of mean x
--             transfers / sum of transfers), shared in proportion to prompt tokens:
--             kv = prompt_tokens x mean_ms / (mean prompt tokens of that server's P/D requests),
--             capped at the decode server's queued time.
--   decode    decode_queue_ms = the decode server's queue_ms - kv_transfer_ms (vLLM's decode
--             server counts the wait for the remote KV cache as queued time);
--             decode_ms = its prefill_ms + decode_ms (first scheduled → last token).
CREATE OR REPLACE TEMP TABLE pd_halves AS
WITH decode_servers AS (
    SELECT DISTINCT instance FROM kv_transfer
),
decode_keys AS (
    SELECT DISTINCT request_key FROM request_timing
    WHERE instance IN (SELECT instance FROM decode_servers)
),
candidates AS (
    SELECT t.rowid AS record_id, t.request_key, t.instance, t.source_kind, t.arrival_ts,
           t.queue_ms, t.prefill_ms, t.decode_ms, t.prompt_tokens, t.output_tokens,
           t.instance IN (SELECT instance FROM decode_servers) AS on_decode_server
    FROM request_timing t
    WHERE t.request_key IN (SELECT request_key FROM decode_keys)
),
pair_keys AS (
    SELECT request_key
    FROM candidates
    GROUP BY request_key
    HAVING count(*) = 2 AND min(instance) <> max(instance) AND min(source_kind) = max(source_kind)
),
halves AS (
    SELECT c.*,
           row_number() OVER (PARTITION BY c.request_key
                              ORDER BY c.on_decode_server, c.arrival_ts NULLS FIRST, c.instance)
               AS half
    FROM candidates c
    WHERE c.request_key IN (SELECT request_key FROM pair_keys)
),
paired AS (
    SELECT p.request_key, p.record_id AS prefill_record_id, d.record_id AS decode_record_id,
           d.instance AS decode_instance, d.queue_ms AS decode_wait_ms,
           d.prefill_ms AS decode_first_ms, d.prefill_ms + d.decode_ms AS decode_ms,
           d.output_tokens AS decode_output_tokens,
           coalesce(d.prompt_tokens, p.prompt_tokens) AS prompt_tokens
    FROM halves p
    JOIN halves d ON d.request_key = p.request_key AND d.half = 2
    WHERE p.half = 1
),
server_means AS (
    -- each decode server's mean transfer time over all its interval rows
    SELECT instance, sum(duration_ms * transfers) / sum(transfers) AS mean_ms
    FROM kv_transfer
    WHERE request_key IS NULL AND transfers > 0 AND duration_ms IS NOT NULL
    GROUP BY instance
),
server_tokens AS (
    SELECT decode_instance, avg(prompt_tokens) AS mean_tokens
    FROM paired
    GROUP BY decode_instance
),
transfers AS (
    SELECT p.*,
           CASE WHEN m.mean_ms IS NOT NULL AND s.mean_tokens > 0
                THEN least(p.prompt_tokens * m.mean_ms / s.mean_tokens, p.decode_wait_ms)
           END AS kv_transfer_ms,
           CASE WHEN m.mean_ms IS NOT NULL AND s.mean_tokens > 0 THEN 'interval_estimate'
           END AS kv_transfer_source
    FROM paired p
    LEFT JOIN server_means m ON m.instance = p.decode_instance
    LEFT JOIN server_tokens s ON s.decode_instance = p.decode_instance
),
-- NVIDIA Dynamo (docs/formats/dynamo.md#attribution): the two halves are the workers'
-- handle_payload spans (source kinds dynamo_prefill, dynamo_decode) of one key on two instances;
-- the transfer is the frontend's request_end kv_transfer_estimated_latency_ms (its own upper
-- bound, which holds the decode worker's queueing and first step too), capped at the decode span
dynamo_keys AS (
    SELECT request_key
    FROM request_timing
    WHERE source_kind IN ('dynamo_prefill', 'dynamo_decode')
    GROUP BY request_key
    HAVING count(*) FILTER (WHERE source_kind = 'dynamo_prefill') = 1
       AND count(*) FILTER (WHERE source_kind = 'dynamo_decode') = 1
       AND min(instance) <> max(instance)
),
dynamo_transfers AS (
    SELECT request_key, max(duration_ms) AS kv_ms
    FROM kv_transfer
    WHERE source_kind = 'dynamo_request_end' AND request_key IS NOT NULL
    GROUP BY request_key
),
dynamo_pairs AS (
    SELECT p.request_key, p.rowid AS prefill_record_id, d.rowid AS decode_record_id,
           d.instance AS decode_instance, least(k.kv_ms, d.e2e_ms) AS kv_transfer_ms,
           d.e2e_ms AS decode_span_ms
    FROM request_timing p
    JOIN request_timing d ON d.request_key = p.request_key AND d.source_kind = 'dynamo_decode'
    LEFT JOIN dynamo_transfers k ON k.request_key = p.request_key
    WHERE p.source_kind = 'dynamo_prefill'
      AND p.request_key IN (SELECT request_key FROM dynamo_keys)
)
SELECT request_key, prefill_record_id, decode_record_id, decode_instance, kv_transfer_ms,
       decode_wait_ms - kv_transfer_ms AS decode_queue_ms, decode_first_ms, decode_ms,
       decode_output_tokens, kv_transfer_source
FROM transfers
UNION ALL
SELECT request_key, prefill_record_id, decode_record_id, decode_instance, kv_transfer_ms,
       CASE WHEN kv_transfer_ms IS NOT NULL THEN 0.0 END AS decode_queue_ms,
       0.0 AS decode_first_ms, decode_span_ms - kv_transfer_ms AS decode_ms,
       CAST(NULL AS INTEGER) AS decode_output_tokens,
       CASE WHEN kv_transfer_ms IS NOT NULL THEN 'request' END AS kv_transfer_source
FROM dynamo_pairs
