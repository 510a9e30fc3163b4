-- attribution/per_request: recomputes request_attribution: each client request joined to the server's records by request_key, split into latency components, with flags.
-- params:  :negative_tolerance_ms (DOUBLE, default 5), :negative_tolerance_pct (DOUBLE, default 1),
--          :warmup_first_n (INTEGER, default 0)
-- returns: nothing; inserts every column of request_attribution (schema/005_attribution). The caller
--          empties the table first, in the same transaction (Attributor does both).
--
-- Formulas (DESIGN.md "Attribution"; all durations in ms, per joined request):
--   client_queue_ms = the client's own wait before sending (client_timing.client_queue_ms; 0 when the
--                     client file records none, client_queue_recorded = false)
--   queue_ms, prefill_ms, decode_ms = the server's phases (request_timing)
--   network_ttft_ms = client_ttft_ms - client_queue_ms - (queue_ms + prefill_ms)
--   network_ms      = client_e2e_ms  - client_queue_ms - (queue_ms + prefill_ms + decode_ms)
--                     so client_e2e_ms = client_queue_ms + network_ms + queue_ms + prefill_ms + decode_ms
--   mlt_ms          = (client_e2e_ms - client_ttft_ms) / (output_tokens - 1), client tokens, if > 1
--   tpot_ms         = decode_ms / (server_output_tokens - 1), client tokens when the server has none
--   dominant        = the largest of network, client_queue, queue, prefill, decode (ties: first wins).
--                     Client queueing competes on its own: it is the load generator's wait, with a
--                     different remedy (client concurrency) from the server's queue (scheduling, batch).
-- Rules:
--   join     by request_key (the one RequestKeys.normalize on both sides), except rows whose ID the
--            server never saw (client_timing.id_kind 'local'); with --match heuristic, also by the
--            one-to-one pairs in request_matches (join_status 'heuristic', confidence 'heuristic').
--            One request_timing row per key is picked (the one with the most of queue/prefill/decode,
--            then by source_kind). A key with more than one client row (a client retry), more than
--            one request_timing row of one source_kind (n > 1 children, two instances) or more than
--            one request_arrived row (the server saw the ID twice: a retry) is 'duplicate':
--            listed with duplicate_reason, never attributed, never double-counted. A key known only
--            from request_arrived (vLLM text logs: 1 s timestamps, no durations) is 'arrival_only',
--            low confidence, server components NULL. No server record at all: 'client_only'.
--   clock    clock_offset_ms: the run's offset for the matched instance and the row's clock (wall for
--            start_ts, monotonic for start_mono_s), else the run's estimate with most pairs
--            (clock_offsets.sql); aligned_start_ts = the start on the server clock (a wall start
--            without an estimate is taken as in sync; a monotonic one stays NULL).
--   derived  a source without prefill or decode (vLLM V0 spans, formats/vllm.md section 4.3) gets
--            prefill = server_ttft - queue and decode = server_e2e - server_ttft, server_derived = true.
--   suspect  network_ms < -greatest(:negative_tolerance_ms, :negative_tolerance_pct % of client_e2e_ms),
--            or network_ttft_ms below the same bound on client_ttft_ms: an ID or clock mismatch.
--            The value is kept as computed, never clamped. The TTFT view is not judged when the
--            client counted more output tokens than the server: it took a non-token event (an SSE
--            heartbeat, an empty chunk) for the first token, so its TTFT is early while its e2e,
--            and with it every component, stays sound (token_mismatch reports it).
--   warm-up  the client's warmup flag, or among the first :warmup_first_n requests (by start time)
--            of its run and concurrency level.
--   included status ok, not warm-up, matched or heuristic, not an ambiguous heuristic match (no times
--            and several candidates), every component present, not suspect; otherwise exclusion
--            names the first failed rule in that order.
INSERT INTO request_attribution BY NAME
WITH settings AS (
    SELECT coalesce(CAST(:negative_tolerance_ms AS DOUBLE), 5.0)  AS tolerance_ms,
           coalesce(CAST(:negative_tolerance_pct AS DOUBLE), 1.0) AS tolerance_pct,
           coalesce(CAST(:warmup_first_n AS INTEGER), 0)          AS warmup_first_n
),
client AS (
    SELECT c.*,
           coalesce(m.server_request_key,
                    CASE WHEN coalesce(c.id_kind, 'sent') <> 'local' THEN c.request_key END) AS join_key,
           m.server_request_key IS NOT NULL AS heuristic_match,
           m.cost AS match_cost, m.candidates AS match_candidates, m.time_diff_ms AS match_time_diff_ms,
           CASE WHEN coalesce(c.id_kind, 'sent') = 'local' THEN 1
                ELSE count(*) OVER (PARTITION BY c.request_key, coalesce(c.id_kind, 'sent') = 'local')
           END AS client_rows,
           CASE WHEN c.start_ts IS NOT NULL THEN 'wall'
                WHEN c.start_mono_s IS NOT NULL THEN 'monotonic' END AS client_clock,
           row_number() OVER (
               PARTITION BY c.run_id, c.concurrency
               ORDER BY c.start_ts NULLS LAST, c.start_mono_s NULLS LAST, c.source_path, c.source_line
           ) AS run_order
    FROM client_timing c
    LEFT JOIN request_matches m
           ON m.run_id = c.run_id
          AND m.client_source_path = c.source_path
          AND m.client_source_line = c.source_line
),
timing_kinds AS (
    SELECT request_key, source_kind, count(*) AS kind_rows
    FROM request_timing
    GROUP BY request_key, source_kind
),
timing_keys AS (
    SELECT request_key, sum(kind_rows) AS server_rows, max(kind_rows) > 1 AS server_duplicate
    FROM timing_kinds
    GROUP BY request_key
),
timing AS (
    SELECT t.*, k.server_rows, k.server_duplicate
    FROM request_timing t
    JOIN timing_keys k ON k.request_key = t.request_key
    QUALIFY row_number() OVER (
        PARTITION BY t.request_key
        ORDER BY CAST(t.queue_ms IS NULL AS INTEGER) + CAST(t.prefill_ms IS NULL AS INTEGER)
                     + CAST(t.decode_ms IS NULL AS INTEGER),
                 t.source_kind, t.instance, t.source_path, t.source_line
    ) = 1
),
arrival AS (
    SELECT request_key, count(*) AS arrival_rows, min(ts) AS arrival_ts,
           min(engine) AS engine, min(instance) AS instance
    FROM request_arrived
    GROUP BY request_key
),
instance_offsets AS (
    SELECT run_id, client_clock, instance, offset_ms FROM clock_offsets
),
run_offsets AS (
    SELECT run_id, client_clock, arg_max(offset_ms, used_pairs) AS offset_ms
    FROM clock_offsets
    GROUP BY run_id, client_clock
),
joined AS (
    SELECT c.run_id, c.client_format, c.source_path AS client_source_path,
           c.source_line AS client_source_line, c.request_id, c.request_key, c.start_ts,
           c.concurrency, c.status, c.prompt_tokens, c.output_tokens, c.client_rows,
           coalesce(c.id_kind, 'sent') AS id_kind, c.match_cost, c.match_candidates,
           c.match_time_diff_ms, c.start_mono_s, c.client_clock,
           c.warmup OR c.run_order <= s.warmup_first_n AS warmup,
           c.ttft_ms AS client_ttft_ms, c.e2e_ms AS client_e2e_ms,
           coalesce(c.client_queue_ms, 0.0) AS client_queue_ms,
           c.client_queue_ms IS NOT NULL AS client_queue_recorded,
           coalesce(t.server_rows, 0) AS server_rows,
           coalesce(a.arrival_rows, 0) AS arrival_rows,
           CASE WHEN t.request_key IS NULL AND a.request_key IS NULL THEN 'client_only'
                WHEN c.client_rows > 1 OR coalesce(t.server_duplicate, false)
                     OR coalesce(a.arrival_rows, 0) > 1 THEN 'duplicate'
                WHEN t.request_key IS NOT NULL AND c.heuristic_match THEN 'heuristic'
                WHEN t.request_key IS NOT NULL THEN 'matched'
                ELSE 'arrival_only' END AS join_status,
           nullif(concat_ws(', ',
               CASE WHEN c.client_rows > 1 THEN 'client rows' END,
               CASE WHEN coalesce(t.server_duplicate, false) THEN 'server records' END,
               CASE WHEN coalesce(a.arrival_rows, 0) > 1 THEN 'server arrivals' END), '')
               AS duplicate_candidates,
           CASE WHEN t.request_key IS NULL AND a.request_key IS NULL THEN NULL
                WHEN c.heuristic_match THEN 'heuristic' ELSE 'id' END AS match_method,
           coalesce(t.engine, a.engine) AS engine,
           coalesce(t.instance, a.instance) AS instance,
           CASE WHEN t.request_key IS NOT NULL THEN t.source_kind
                WHEN a.request_key IS NOT NULL THEN 'text_log' END AS server_source,
           coalesce(t.arrival_ts, a.arrival_ts) AS server_arrival_ts,
           t.request_id AS t_request_id, t.source_path AS t_source_path, t.source_line AS t_source_line,
           t.queue_ms AS t_queue_ms, t.prefill_ms AS t_prefill_ms, t.decode_ms AS t_decode_ms,
           t.server_ttft_ms AS t_ttft_ms, t.e2e_ms AS t_e2e_ms, t.output_tokens AS t_output_tokens,
           s.tolerance_ms, s.tolerance_pct
    FROM client c
    CROSS JOIN settings s
    LEFT JOIN timing t ON t.request_key = c.join_key
    LEFT JOIN arrival a ON a.request_key = c.join_key
),
aligned AS (
    SELECT j.*,
           coalesce(io.offset_ms, ro.offset_ms) AS clock_offset_ms
    FROM joined j
    LEFT JOIN instance_offsets io
           ON io.run_id = j.run_id AND io.client_clock = j.client_clock AND io.instance = j.instance
    LEFT JOIN run_offsets ro ON ro.run_id = j.run_id AND ro.client_clock = j.client_clock
),
server AS (
    SELECT j.*,
           join_status IN ('matched', 'heuristic') AS paired,
           CASE WHEN join_status = 'duplicate' THEN duplicate_candidates END AS duplicate_reason,
           CASE WHEN start_ts IS NOT NULL
                THEN start_ts + to_microseconds(CAST(round(coalesce(clock_offset_ms, 0.0) * 1000)
                                                     AS BIGINT))
                WHEN start_mono_s IS NOT NULL AND clock_offset_ms IS NOT NULL
                THEN make_timestamp(CAST(round((start_mono_s * 1000.0 + clock_offset_ms) * 1000)
                                         AS BIGINT))
           END AS aligned_start_ts,
           CASE WHEN join_status IN ('matched', 'heuristic') THEN t_request_id END AS server_request_id,
           CASE WHEN join_status IN ('matched', 'heuristic') THEN t_source_path END AS server_source_path,
           CASE WHEN join_status IN ('matched', 'heuristic') THEN t_source_line END AS server_source_line,
           CASE WHEN join_status IN ('matched', 'heuristic') THEN t_output_tokens END
               AS server_output_tokens,
           CASE WHEN join_status IN ('matched', 'heuristic') THEN t_ttft_ms END AS server_ttft_ms,
           CASE WHEN join_status IN ('matched', 'heuristic') THEN t_e2e_ms END AS server_e2e_ms,
           CASE WHEN join_status IN ('matched', 'heuristic') THEN t_queue_ms END AS queue_ms,
           CASE WHEN join_status IN ('matched', 'heuristic')
                THEN coalesce(t_prefill_ms, t_ttft_ms - t_queue_ms) END AS prefill_ms,
           CASE WHEN join_status IN ('matched', 'heuristic')
                THEN coalesce(t_decode_ms, t_e2e_ms - t_ttft_ms) END AS decode_ms,
           join_status IN ('matched', 'heuristic')
               AND ((t_prefill_ms IS NULL AND t_ttft_ms - t_queue_ms IS NOT NULL)
                    OR (t_decode_ms IS NULL AND t_e2e_ms - t_ttft_ms IS NOT NULL)) AS server_derived
    FROM aligned j
),
components AS (
    SELECT s.*,
           client_ttft_ms - client_queue_ms - (queue_ms + prefill_ms) AS network_ttft_ms,
           client_e2e_ms - client_queue_ms - (queue_ms + prefill_ms + decode_ms) AS network_ms,
           CASE WHEN output_tokens > 1
                THEN (client_e2e_ms - client_ttft_ms) / (output_tokens - 1) END AS mlt_ms,
           CASE WHEN coalesce(server_output_tokens, output_tokens) > 1
                THEN decode_ms / (coalesce(server_output_tokens, output_tokens) - 1) END AS tpot_ms,
           paired AND server_output_tokens IS NOT NULL AND output_tokens IS NOT NULL
               AND server_output_tokens <> output_tokens AS token_mismatch
    FROM server s
),
flagged AS (
    SELECT c.*,
           CASE WHEN network_ms IS NULL THEN NULL
                WHEN network_ms >= greatest(client_queue_ms, queue_ms, prefill_ms, decode_ms) THEN 'network'
                WHEN client_queue_ms >= greatest(queue_ms, prefill_ms, decode_ms) THEN 'client_queue'
                WHEN queue_ms >= greatest(prefill_ms, decode_ms) THEN 'queue'
                WHEN prefill_ms >= decode_ms THEN 'prefill'
                ELSE 'decode' END AS dominant,
           CASE WHEN network_ms < -greatest(tolerance_ms, tolerance_pct / 100.0 * client_e2e_ms)
                THEN 'negative network_ms beyond tolerance' END AS e2e_reason,
           CASE WHEN network_ttft_ms < -greatest(tolerance_ms, tolerance_pct / 100.0 * client_ttft_ms)
                     AND NOT coalesce(output_tokens > server_output_tokens, false)
                THEN 'negative network_ttft_ms beyond tolerance' END AS ttft_reason
    FROM components c
),
judged AS (
    SELECT f.*,
           e2e_reason IS NOT NULL OR ttft_reason IS NOT NULL AS suspect,
           nullif(concat_ws('; ', e2e_reason, ttft_reason), '') AS suspect_reason,
           CASE WHEN status <> 'ok' THEN 'client error'
                WHEN warmup THEN 'warm-up'
                WHEN join_status = 'client_only' THEN 'no server record'
                WHEN join_status = 'duplicate' THEN 'duplicate key'
                WHEN join_status = 'arrival_only' THEN 'no server durations'
                WHEN join_status = 'heuristic' AND match_time_diff_ms IS NULL
                     AND match_candidates > 1 THEN 'ambiguous match'
                WHEN network_ms IS NULL OR network_ttft_ms IS NULL THEN 'incomplete timing'
                WHEN e2e_reason IS NOT NULL OR ttft_reason IS NOT NULL THEN 'suspect'
           END AS exclusion
    FROM flagged f
)
SELECT run_id, client_format, client_source_path, client_source_line, request_id, request_key,
       start_ts, concurrency, status, warmup, join_status,
       CASE WHEN join_status = 'heuristic' THEN 'heuristic'
            WHEN join_status = 'matched' AND network_ms IS NOT NULL AND network_ttft_ms IS NOT NULL
                THEN 'high'
            WHEN join_status IN ('matched', 'arrival_only') THEN 'low' END AS confidence,
       client_rows, server_rows, arrival_rows, engine, instance, server_source, server_request_id,
       server_source_path, server_source_line, server_arrival_ts, prompt_tokens, output_tokens,
       server_output_tokens, coalesce(token_mismatch, false) AS token_mismatch,
       client_ttft_ms, client_e2e_ms, client_queue_ms, client_queue_recorded, network_ttft_ms,
       network_ms, queue_ms, prefill_ms, decode_ms, server_derived, server_ttft_ms, server_e2e_ms,
       mlt_ms, tpot_ms, dominant, suspect, suspect_reason,
       exclusion IS NULL AS included, exclusion, id_kind, match_method, match_cost,
       match_candidates, duplicate_reason, clock_offset_ms, aligned_start_ts
FROM judged
