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
--             instances, at least one of which is on a decode server: a server with interval
--             kv_transfer rows (vLLM's decode side), or, for a key with its own kv_transfer row,
--             the instance that logged it when its side is 'decode' and every other instance when
--             its side is 'prefill' (SGLang's prefill server logs the transfer,
--             docs/formats/pd.md#sglang-time-stats). The decode half is the record on such an
--             instance that arrived last; the other is the prefill half (the proxy sends to the
--             prefill server first).
--   transfer  the request's own row when it has one (kv_transfer_source 'request', the first of
--             the key by time); else the estimate (docs/formats/pd.md#estimate,
--             'interval_estimate'): the decode server's mean transfer time over all its interval
--             rows (sum of mean x transfers / sum of transfers), shared in proportion to prompt
--             tokens: kv = prompt_tokens x mean_ms / (mean prompt tokens of that server's P/D
--             requests), capped at the decode server's queued time.
--   decode    vLLM (and any engine but SGLang): decode_queue_ms = the decode server's queue_ms -
--             kv_transfer_ms (its decode server counts the wait for the remote KV cache as queued
--             time); decode_ms = its prefill_ms + decode_ms (first scheduled → last token), its
--             prefill_ms the first step. SGLang: decode_queue_ms = the decode server's queue_ms
--             (its waiting queue after the transfer, which the transfer is not part of);
--             decode_ms = its decode_ms (forward time); first step 0 (the prefill server made the
--             first token, the decode server streams it when first scheduled).
CREATE OR REPLACE TEMP TABLE pd_halves AS
WITH interval_servers AS (
    -- servers with interval rows: vLLM's decode side
    SELECT DISTINCT instance FROM kv_transfer WHERE request_key IS NULL
),
request_transfers AS (
    -- a request's own transfer row, the first of its key by time
    SELECT request_key, instance, side, duration_ms
    FROM kv_transfer
    WHERE request_key IS NOT NULL AND duration_ms IS NOT NULL
    QUALIFY row_number() OVER (PARTITION BY request_key
                               ORDER BY ts NULLS LAST, source_path, source_line) = 1
),
candidate_keys AS (
    SELECT DISTINCT request_key FROM request_timing
    WHERE instance IN (SELECT instance FROM interval_servers)
    UNION
    SELECT request_key FROM request_transfers
),
candidates AS (
    SELECT t.rowid AS record_id, t.request_key, t.instance, t.source_kind, t.arrival_ts, t.engine,
           t.queue_ms, t.prefill_ms, t.decode_ms, t.prompt_tokens, t.output_tokens,
           CASE WHEN r.request_key IS NOT NULL THEN (t.instance = r.instance) = (r.side = 'decode')
                ELSE t.instance IN (SELECT instance FROM interval_servers)
           END AS on_decode_server,
           r.duration_ms AS request_transfer_ms
    FROM request_timing t
    LEFT JOIN request_transfers r ON r.request_key = t.request_key
    WHERE t.request_key IN (SELECT request_key FROM candidate_keys)
),
pair_keys AS (
    SELECT request_key
    FROM candidates
    GROUP BY request_key
    HAVING count(*) = 2 AND min(instance) <> max(instance) AND min(source_kind) = max(source_kind)
       AND bool_or(on_decode_server)
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
           d.instance AS decode_instance, d.engine = 'sglang' AS sglang,
           d.queue_ms AS decode_wait_ms, d.request_transfer_ms,
           CASE WHEN d.engine = 'sglang' THEN 0.0 ELSE d.prefill_ms END AS decode_first_ms,
           CASE WHEN d.engine = 'sglang' THEN d.decode_ms ELSE d.prefill_ms + d.decode_ms END
               AS decode_ms,
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
           CASE WHEN p.request_transfer_ms IS NOT NULL THEN p.request_transfer_ms
                WHEN m.mean_ms IS NOT NULL AND s.mean_tokens > 0
                THEN least(p.prompt_tokens * m.mean_ms / s.mean_tokens, p.decode_wait_ms)
           END AS kv_transfer_ms,
           CASE WHEN p.request_transfer_ms IS NOT NULL THEN 'request'
                WHEN m.mean_ms IS NOT NULL AND s.mean_tokens > 0 THEN 'interval_estimate'
           END AS kv_transfer_source
    FROM paired p
    LEFT JOIN server_means m ON m.instance = p.decode_instance
    LEFT JOIN server_tokens s ON s.decode_instance = p.decode_instance
)
SELECT request_key, prefill_record_id, decode_record_id, decode_instance, kv_transfer_ms,
       CASE WHEN sglang THEN decode_wait_ms ELSE decode_wait_ms - kv_transfer_ms END
           AS decode_queue_ms,
       decode_first_ms, decode_ms, decode_output_tokens, kv_transfer_source
FROM transfers
