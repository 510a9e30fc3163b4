-- attribution/pd_halves: which requests were prefilled on one server and decoded on another, with the decode half's figures and the KV transfer, as a temporary table the key table and per_request.sql read in correlate's transaction.
-- params:  none
-- returns: nothing; creates (or replaces) the temporary table pd_halves, one row per P/D request
--          (docs/formats/pd.md#attribution): request_key, prefill_record_id and decode_record_id
--          (request_timing rowids as DuckDB resolves the name now: an incremental round's
--          shadowing table, else the stored one), decode_instance, kv_transfer_ms, decode_queue_ms,
--          decode_first_ms (the decode server's first step), decode_ms (its first scheduled → last
--          token), decode_output_tokens, kv_transfer_source, decode_wait_ms (the decode server's
--          queued time and transfer, kv_transfer_ms + decode_queue_ms). Attributor creates it before
--          request_keys.sql, every time it makes the key table, and drops it with it. Empty (and
--          cheap) when no server logged a KV transfer: a single-server run is attributed as before.
--
-- Rules (docs/formats/pd.md#attribution):
--   pair      a request_key with exactly two request_timing records, of one source_kind, on two
--             instances, at least one of which is a decode server: one that logged kv_transfer
--             rows of side 'decode', or, for a key with a request row of side 'prefill' (SGLang's
--             prefill server logs the transfer, docs/formats/pd.md#sglang-time-stats), every
--             instance but the one that logged it. The decode half is the record on such an
--             instance that arrived last; the other is the prefill half (the proxy sends to the
--             prefill server first). TensorRT-LLM's two halves share the key by their
--             ctx_request_id (docs/formats/pd.md#tensorrt-llm).
--   transfer  the request's own transfer where the decode server logged one (kv_transfer_source
--             'request': a row of side 'decode' with the pair's request_key on the decode
--             instance; TensorRT-LLM's perf metrics before its transfer CSVs), else where the
--             prefill server logged one ('request', side 'prefill', the first of the key by time:
--             SGLang; not capped, its decode server's queue does not hold it), else the estimate
--             (docs/formats/pd.md#estimate, kv_transfer_source 'interval_estimate'): the decode
--             server's mean transfer time over all its interval rows (sum of mean x transfers /
--             sum of transfers), shared in proportion to prompt tokens:
--             kv = prompt_tokens x mean_ms / (mean prompt tokens of that server's P/D requests).
--             The decode side's row and the estimate are capped at the decode server's queued time.
--   decode    decode_queue_ms = the decode server's queue_ms - kv_transfer_ms (vLLM's decode
--             server counts the wait for the remote KV cache as queued time);
--             decode_ms = its prefill_ms + decode_ms (first scheduled → last token), its
--             prefill_ms the first step. SGLang (engine 'sglang'): decode_queue_ms = the decode
--             server's queue_ms (its waiting queue after the transfer); decode_ms = its decode_ms
--             (forward time); first step 0 (the prefill server made the first token, the decode
--             server streams it when first scheduled); decode_wait_ms = kv + decode queue.
--   dynamo    NVIDIA Dynamo's halves (source kinds dynamo_prefill / dynamo_decode, one each, on
--             two instances) pair without the rules above: the branches after UNION ALL
--             (docs/formats/pd.md#dynamo). Where the in-process engine's own records of the key
--             exist on both workers (docs/formats/dynamo.md#engine-records), they split each side
--             and the rows with a NULL prefill_record_id name the extra records to leave out.
CREATE OR REPLACE TEMP TABLE pd_halves AS
WITH decode_servers AS (
    SELECT DISTINCT instance FROM kv_transfer WHERE side = 'decode'
),
prefill_transfers AS (
    -- a request's own transfer as its prefill server logged it (SGLang), the first of its key
    SELECT request_key, instance, duration_ms
    FROM kv_transfer
    WHERE request_key IS NOT NULL AND side = 'prefill' AND duration_ms IS NOT NULL
    QUALIFY row_number() OVER (PARTITION BY request_key
                               ORDER BY ts NULLS LAST, source_path, source_line) = 1
),
decode_keys AS (
    SELECT DISTINCT request_key FROM request_timing
    WHERE instance IN (SELECT instance FROM decode_servers)
    UNION
    SELECT request_key FROM prefill_transfers
),
candidates AS (
    SELECT t.rowid AS record_id, t.request_key, t.instance, t.source_kind, t.arrival_ts, t.engine,
           t.queue_ms, t.prefill_ms, t.decode_ms, t.prompt_tokens, t.output_tokens,
           CASE WHEN f.request_key IS NOT NULL THEN t.instance <> f.instance
                ELSE t.instance IN (SELECT instance FROM decode_servers)
           END AS on_decode_server,
           f.duration_ms AS prefill_transfer_ms
    FROM request_timing t
    LEFT JOIN prefill_transfers f ON f.request_key = t.request_key
    WHERE t.request_key IN (SELECT request_key FROM decode_keys)
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
           d.queue_ms AS decode_wait_ms, d.prefill_transfer_ms,
           CASE WHEN d.engine = 'sglang' THEN 0.0 ELSE d.prefill_ms END AS decode_first_ms,
           CASE WHEN d.engine = 'sglang' THEN d.decode_ms ELSE d.prefill_ms + d.decode_ms END
               AS decode_ms,
           d.output_tokens AS decode_output_tokens,
           coalesce(d.prompt_tokens, p.prompt_tokens) AS prompt_tokens
    FROM halves p
    JOIN halves d ON d.request_key = p.request_key AND d.half = 2
    WHERE p.half = 1
),
own_transfers AS (
    -- a request's own transfer on its decode server; perf metrics first (the decode server's
    -- clock, as its queued time), then the transfer CSV (docs/formats/pd.md#tensorrt-llm)
    SELECT request_key, instance, duration_ms
    FROM (SELECT k.request_key, k.instance, k.duration_ms,
                 row_number() OVER (PARTITION BY k.request_key, k.instance
                                    ORDER BY CASE WHEN k.source_kind = 'perf_metrics' THEN 0 ELSE 1 END,
                                             k.source_kind, k.duration_ms) AS pick
          FROM kv_transfer k
          WHERE k.request_key IS NOT NULL AND k.side = 'decode' AND k.duration_ms IS NOT NULL
            AND k.request_key IN (SELECT request_key FROM pair_keys)) o
    WHERE pick = 1
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
           CASE WHEN o.duration_ms IS NOT NULL THEN least(o.duration_ms, p.decode_wait_ms)
                WHEN p.prefill_transfer_ms IS NOT NULL THEN p.prefill_transfer_ms
                WHEN m.mean_ms IS NOT NULL AND s.mean_tokens > 0
                THEN least(p.prompt_tokens * m.mean_ms / s.mean_tokens, p.decode_wait_ms)
           END AS kv_transfer_ms,
           CASE WHEN o.duration_ms IS NOT NULL OR p.prefill_transfer_ms IS NOT NULL THEN 'request'
                WHEN m.mean_ms IS NOT NULL AND s.mean_tokens > 0 THEN 'interval_estimate'
           END AS kv_transfer_source
    FROM paired p
    LEFT JOIN own_transfers o
           ON o.request_key = p.request_key AND o.instance = p.decode_instance
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
dynamo_engine AS (
    -- the in-process engine's own record of the key on a worker (docs/formats/dynamo.md#engine-records):
    -- any record of a dynamo key but Dynamo's spans, one per instance
    SELECT t.rowid AS record_id, t.request_key, t.instance, t.arrival_ts, t.queue_ms, t.prefill_ms,
           t.decode_ms, t.output_tokens
    FROM request_timing t
    WHERE t.request_key IN (SELECT request_key FROM dynamo_keys)
      AND t.source_kind NOT IN ('dynamo_prefill', 'dynamo_decode')
    QUALIFY count(*) OVER (PARTITION BY t.request_key, t.instance) = 1
),
dynamo_ready AS (
    -- the decode engine's end of the request's transfer (vLLM's scheduler record)
    SELECT request_key, instance, min(ts) AS ready_ts
    FROM kv_transfer
    WHERE source_kind = 'vllm_recv_done' AND request_key IS NOT NULL
    GROUP BY request_key, instance
),
dynamo_pairs AS (
    SELECT p.request_key, p.rowid AS prefill_record_id, d.rowid AS decode_record_id,
           d.instance AS decode_instance, least(k.kv_ms, d.e2e_ms) AS kv_transfer_ms,
           d.e2e_ms AS decode_span_ms,
           pe.record_id AS engine_prefill_id, de.record_id AS engine_decode_id,
           de.queue_ms AS engine_wait_ms, de.prefill_ms AS engine_first_ms,
           de.prefill_ms + de.decode_ms AS engine_decode_ms, de.output_tokens AS engine_tokens,
           -- the engine's queued time holds the transfer (arrival → its end) and the wait for a slot
           least(coalesce((epoch_us(r.ready_ts) - epoch_us(de.arrival_ts)) / 1000.0, k.kv_ms),
                 de.queue_ms) AS engine_kv_ms
    FROM request_timing p
    JOIN request_timing d ON d.request_key = p.request_key AND d.source_kind = 'dynamo_decode'
    LEFT JOIN dynamo_transfers k ON k.request_key = p.request_key
    LEFT JOIN dynamo_engine pe ON pe.request_key = p.request_key AND pe.instance = p.instance
    LEFT JOIN dynamo_engine de ON de.request_key = p.request_key AND de.instance = d.instance
    LEFT JOIN dynamo_ready r ON r.request_key = p.request_key AND r.instance = d.instance
    WHERE p.source_kind = 'dynamo_prefill'
      AND p.request_key IN (SELECT request_key FROM dynamo_keys)
),
dynamo_split AS (
    -- with both engines' records each side is split (the engine's prefill record is the prefill
    -- half); else each side as a whole
    SELECT *, engine_prefill_id IS NOT NULL AND engine_decode_id IS NOT NULL
                  AND engine_wait_ms IS NOT NULL AND engine_first_ms IS NOT NULL
                  AND engine_decode_ms IS NOT NULL AS split
    FROM dynamo_pairs
)
SELECT request_key, prefill_record_id, decode_record_id, decode_instance, kv_transfer_ms,
       CASE WHEN sglang THEN decode_wait_ms ELSE decode_wait_ms - kv_transfer_ms END
           AS decode_queue_ms,
       decode_first_ms, decode_ms, decode_output_tokens, kv_transfer_source,
       CASE WHEN sglang THEN decode_wait_ms + kv_transfer_ms ELSE decode_wait_ms END
           AS decode_wait_ms
FROM transfers
UNION ALL
SELECT request_key, prefill_record_id, decode_record_id, decode_instance, kv_transfer_ms,
       CASE WHEN kv_transfer_ms IS NOT NULL THEN 0.0 END AS decode_queue_ms,
       0.0 AS decode_first_ms, decode_span_ms - kv_transfer_ms AS decode_ms,
       CAST(NULL AS INTEGER) AS decode_output_tokens,
       CASE WHEN kv_transfer_ms IS NOT NULL THEN 'request' END AS kv_transfer_source,
       kv_transfer_ms AS decode_wait_ms
FROM dynamo_split
WHERE NOT split
UNION ALL
SELECT request_key, engine_prefill_id, decode_record_id, decode_instance, engine_kv_ms,
       engine_wait_ms - engine_kv_ms, engine_first_ms, engine_decode_ms, engine_tokens,
       CASE WHEN engine_kv_ms IS NOT NULL THEN 'request' END, engine_wait_ms
FROM dynamo_split
WHERE split
UNION ALL
-- the records a split request leaves out besides its decode half (Dynamo's prefill span, the
-- decode engine's record): rows no prefill record joins, read only for decode_record_id; one
-- branch each, not unnest of a list literal, which Spark SQL lacks (docs/scale.md#dialect)
SELECT request_key, CAST(NULL AS BIGINT), prefill_record_id,
       CAST(NULL AS VARCHAR), NULL, NULL, NULL, NULL, CAST(NULL AS INTEGER), CAST(NULL AS VARCHAR),
       NULL
FROM dynamo_split
WHERE split
UNION ALL
SELECT request_key, CAST(NULL AS BIGINT), engine_decode_id,
       CAST(NULL AS VARCHAR), NULL, NULL, NULL, NULL, CAST(NULL AS INTEGER), CAST(NULL AS VARCHAR),
       NULL
FROM dynamo_split
WHERE split
