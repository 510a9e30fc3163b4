-- attribution/heuristic_candidates: which server requests could each unpaired client request be, by time window, token counts and durations?
-- params:  :window_ms (DOUBLE, default 1000: largest gap between the aligned client send and the server arrival),
--          :output_token_tolerance (INTEGER, default 1: allowed output-token difference, or 2 percent if larger),
--          :prompt_token_tolerance (INTEGER, default 32: allowed prompt-token difference, or 5 percent if larger; chat templates add tokens),
--          :negative_tolerance_ms (DOUBLE, default 5: how far a server duration may exceed the client one),
--          :max_candidates (INTEGER, default 8: candidates kept per client row, best first)
-- returns: run_id, client_source_path, client_source_line, server_request_key, server_instance,
--          cost, time_diff_ms, candidates
--
-- Used by --match heuristic (HeuristicMatcher assigns one to one, best cost first). Client rows: status
-- ok, key unique among client rows, and not joinable by ID (id_kind local, or no server record an ID
-- can join has their key: SGLang ignores X-Request-Id, TensorRT-LLM has no client IDs). Server
-- requests: keys no client sent, each the engine's own and so named by (instance, request_key): a
-- TensorRT-LLM counter repeats on every instance. Records of the engine-counter kinds (perf_metrics,
-- perf_time_events: docs/formats/trtllm.md#request-ids) are the engine's own even when a client happened
-- to send the same key. One request_timing row per (instance, key) (as per_request picks it), not
-- aborted (a client that completed cannot be an attempt the server aborted), not duplicated (one
-- completed row per source_kind, at most one arrival).
-- Timed pairs need both times on one clock:
--   wall     the server's arrival_ts against the client's send on the server clock (start + client
--            queue + the run's id_pairs clock offset, the estimate with most pairs; a wall clock
--            without an estimate is taken as in sync; a monotonic one without an estimate has no
--            time);
--   steady   the server's arrival_mono_s (TensorRT-LLM) against the client's send on its own clock
--            plus the time_series offset that links the run to that instance (clock_offsets, not
--            flagged ambiguous; SteadyClockOffsets); other runs never pair with that instance's
--            steady rows by time;
--   and |server arrival - client send| <= :window_ms.
-- Untimed pairs (no time on either side: SGLang bench, LLMPerf; TensorRT-LLM without a link) need
-- equal output token counts on both sides.
-- Both need, where both sides have them: output and prompt tokens within tolerance, and server e2e
-- and TTFT not above the client's (minus its queue) by more than the tolerance.
-- cost = |time diff| / :window_ms (1 when untimed) + |output diff| / (1 + output tolerance)
--        + |prompt diff| / (1 + prompt tolerance) + |network_e2e| / client e2e
--        + |network_ttft - network_e2e| / :window_ms,
--   with network_e2e = client e2e - queue - server e2e and network_ttft = client TTFT - queue -
--   server TTFT. The last term: the first and the last token cross the same network, so for the
--   true pair the two network times agree; for another request they differ by the difference of
--   the two requests' decode times. Without it a burst of sends (many at one instant, equal times)
--   is told apart by e2e alone.
-- candidates: how many server requests passed for the client row, before keeping :max_candidates.
-- P/D (docs/formats/pd.md#attribution): a request prefilled on one server and decoded on another
-- (pd_halves, made first in the same transaction) is one server request, its prefill half: the
-- decode half is never a candidate, and the server e2e and TTFT above are the two halves' sums
-- (prefill e2e + the decode server's queued time + its first step, or + its whole time), so that
-- the network terms compare like with like. A time_series link to a P/D clock group (context
-- servers behind one TensorRT-LLM disaggregated server, named 'prefill-0+prefill-1' by
-- steady_clock_series.sql) holds for each of its instances: they share that server's steady clock.
WITH RECURSIVE arrivals_once AS (
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
settings AS (
    SELECT coalesce(CAST(:window_ms AS DOUBLE), 1000.0)              AS window_ms,
           coalesce(CAST(:output_token_tolerance AS INTEGER), 1)     AS output_tolerance,
           coalesce(CAST(:prompt_token_tolerance AS INTEGER), 32)    AS prompt_tolerance,
           coalesce(CAST(:negative_tolerance_ms AS DOUBLE), 5.0)     AS negative_tolerance_ms,
           coalesce(CAST(:max_candidates AS INTEGER), 8)             AS max_candidates
),
client_keys AS (
    SELECT DISTINCT request_key FROM client_timing WHERE coalesce(id_kind, 'sent') <> 'local'
),
id_server_keys AS (
    SELECT request_key FROM request_timing
    WHERE source_kind NOT IN ('perf_metrics', 'perf_time_events')
    UNION
    SELECT request_key FROM request_arrived
),
engine_records AS (
    SELECT t.*, t.rowid AS record_id
    FROM request_timing t
    WHERE (t.source_kind IN ('perf_metrics', 'perf_time_events')
           OR NOT EXISTS (SELECT 1 FROM client_keys k WHERE k.request_key = t.request_key))
      AND lower(coalesce(t.finish_reason, '')) NOT IN ('abort', 'aborted', 'cancelled', 'canceled')
      AND t.rowid NOT IN (SELECT decode_record_id FROM pd_halves)
),
timing_kinds AS (
    SELECT instance, request_key, max(kind_rows) AS kind_rows
    FROM (SELECT instance, request_key, count(*) AS kind_rows
          FROM engine_records GROUP BY instance, request_key, source_kind)
    GROUP BY instance, request_key
),
arrivals AS (
    SELECT instance, request_key, count(*) AS arrival_rows
    FROM arrivals_once GROUP BY instance, request_key
),
server AS (
    SELECT t.request_key, t.instance, t.arrival_ts, t.arrival_mono_s, t.prompt_tokens,
           coalesce(h.decode_output_tokens, t.output_tokens) AS output_tokens,
           CASE WHEN h.request_key IS NULL THEN t.e2e_ms
                ELSE coalesce(t.e2e_ms, t.server_ttft_ms) + h.decode_wait_ms + h.decode_ms
           END AS e2e_ms,
           CASE WHEN h.request_key IS NULL THEN t.server_ttft_ms
                ELSE coalesce(t.e2e_ms, t.server_ttft_ms) + h.decode_wait_ms + h.decode_first_ms
           END AS server_ttft_ms
    FROM engine_records t
    JOIN timing_kinds k ON k.instance = t.instance AND k.request_key = t.request_key
    LEFT JOIN pd_halves h ON h.prefill_record_id = t.record_id
    LEFT JOIN arrivals a ON a.instance = t.instance AND a.request_key = t.request_key
    WHERE k.kind_rows = 1
      AND coalesce(a.arrival_rows, 0) <= 1
    QUALIFY row_number() OVER (
        PARTITION BY t.instance, t.request_key
        ORDER BY CAST(t.queue_ms IS NULL AS INTEGER) + CAST(t.prefill_ms IS NULL AS INTEGER)
                     + CAST(t.decode_ms IS NULL AS INTEGER),
                 t.source_kind, t.source_path, t.source_line
    ) = 1
),
run_offsets AS (
    SELECT run_id, client_clock, arg_max(offset_ms, used_pairs) AS offset_ms
    FROM clock_offsets
    WHERE coalesce(method, 'id_pairs') = 'id_pairs'
    GROUP BY run_id, client_clock
),
pd_edges AS (
    SELECT DISTINCT t.instance AS prefill_instance, h.decode_instance
    FROM pd_halves h JOIN request_timing t ON t.rowid = h.prefill_record_id
),
pd_reach (prefill_instance, member) AS (
    SELECT prefill_instance, prefill_instance FROM pd_edges
    UNION
    SELECT r.prefill_instance, o.prefill_instance
    FROM pd_reach r
    JOIN pd_edges e ON e.prefill_instance = r.member
    JOIN pd_edges o ON o.decode_instance = e.decode_instance
),
pd_clock_groups AS (
    SELECT prefill_instance AS instance,
           string_agg(DISTINCT member, '+' ORDER BY member) AS clock_group
    FROM pd_reach GROUP BY prefill_instance
),
steady_links AS (
    SELECT o.run_id, o.client_clock, coalesce(g.instance, o.instance) AS instance, o.offset_ms
    FROM clock_offsets o
    LEFT JOIN pd_clock_groups g ON g.clock_group = o.instance
    WHERE o.method = 'time_series' AND coalesce(o.flag, '') NOT LIKE '%ambiguous%'
),
client AS (
    SELECT c.run_id, c.source_path, c.source_line, c.prompt_tokens, c.output_tokens, c.e2e_ms,
           c.ttft_ms, coalesce(c.client_queue_ms, 0.0) AS queue_ms,
           CASE WHEN c.start_ts IS NOT NULL THEN 'wall' ELSE 'monotonic' END AS client_clock,
           CASE WHEN c.start_ts IS NOT NULL THEN epoch_us(c.start_ts) / 1000.0
                ELSE c.start_mono_s * 1000.0 END + coalesce(c.client_queue_ms, 0.0) AS send_ms,
           CASE WHEN c.start_ts IS NOT NULL
                THEN c.start_ts + to_microseconds(CAST(round(
                         (coalesce(o.offset_ms, 0.0) + coalesce(c.client_queue_ms, 0.0)) * 1000)
                         AS BIGINT))
                WHEN c.start_mono_s IS NOT NULL AND o.offset_ms IS NOT NULL
                THEN make_timestamp(CAST(round(
                         (c.start_mono_s * 1000.0 + o.offset_ms + coalesce(c.client_queue_ms, 0.0))
                         * 1000) AS BIGINT))
           END AS sent_ts
    FROM client_timing c
    LEFT JOIN run_offsets o
           ON o.run_id = c.run_id
          AND o.client_clock = CASE WHEN c.start_ts IS NOT NULL THEN 'wall' ELSE 'monotonic' END
    WHERE c.status = 'ok'
      AND (coalesce(c.id_kind, 'sent') = 'local'
           OR NOT EXISTS (SELECT 1 FROM id_server_keys k WHERE k.request_key = c.request_key))
    QUALIFY coalesce(c.id_kind, 'sent') = 'local'
         OR count(*) OVER (PARTITION BY c.request_key) = 1
),
timed_wall AS (
    SELECT c.*, s.request_key AS server_request_key, s.instance AS server_instance,
           s.prompt_tokens AS s_prompt, s.output_tokens AS s_output, s.e2e_ms AS s_e2e,
           s.server_ttft_ms AS s_ttft,
           (epoch_us(s.arrival_ts) - epoch_us(c.sent_ts)) / 1000.0 AS time_diff_ms
    FROM client c
    CROSS JOIN settings t
    JOIN server s
      ON s.arrival_ts BETWEEN c.sent_ts - to_microseconds(CAST(t.window_ms * 1000 AS BIGINT))
                          AND c.sent_ts + to_microseconds(CAST(t.window_ms * 1000 AS BIGINT))
    WHERE c.sent_ts IS NOT NULL
),
timed_steady AS (
    SELECT c.*, s.request_key AS server_request_key, s.instance AS server_instance,
           s.prompt_tokens AS s_prompt, s.output_tokens AS s_output, s.e2e_ms AS s_e2e,
           s.server_ttft_ms AS s_ttft,
           s.arrival_mono_s * 1000.0 - (c.send_ms + l.offset_ms) AS time_diff_ms
    FROM client c
    CROSS JOIN settings t
    JOIN steady_links l ON l.run_id = c.run_id AND l.client_clock = c.client_clock
    JOIN server s
      ON s.instance = l.instance
     AND s.arrival_ts IS NULL
     AND s.arrival_mono_s * 1000.0 BETWEEN c.send_ms + l.offset_ms - t.window_ms
                                       AND c.send_ms + l.offset_ms + t.window_ms
    WHERE c.send_ms IS NOT NULL
),
untimed AS (
    SELECT c.*, s.request_key AS server_request_key, s.instance AS server_instance,
           s.prompt_tokens AS s_prompt, s.output_tokens AS s_output, s.e2e_ms AS s_e2e,
           s.server_ttft_ms AS s_ttft, CAST(NULL AS DOUBLE) AS time_diff_ms
    FROM client c
    JOIN server s ON s.output_tokens = c.output_tokens
    WHERE (c.sent_ts IS NULL OR s.arrival_ts IS NULL)
      AND NOT EXISTS (
          SELECT 1 FROM steady_links l
          WHERE l.run_id = c.run_id AND l.client_clock = c.client_clock
            AND l.instance = s.instance AND s.arrival_mono_s IS NOT NULL AND c.send_ms IS NOT NULL)
),
passed AS (
    SELECT p.*, t.*,
           p.e2e_ms - p.queue_ms - p.s_e2e AS network_e2e_ms,
           p.ttft_ms - p.queue_ms - p.s_ttft AS network_ttft_ms
    FROM (SELECT * FROM timed_wall
          UNION ALL SELECT * FROM timed_steady
          UNION ALL SELECT * FROM untimed) p
    CROSS JOIN settings t
    WHERE (p.output_tokens IS NULL OR p.s_output IS NULL
           OR abs(p.s_output - p.output_tokens) <= greatest(t.output_tolerance, 0.02 * p.s_output))
      AND (p.prompt_tokens IS NULL OR p.s_prompt IS NULL
           OR abs(p.s_prompt - p.prompt_tokens) <= greatest(t.prompt_tolerance, 0.05 * p.s_prompt))
      AND (p.e2e_ms IS NULL OR p.s_e2e IS NULL
           OR p.s_e2e <= p.e2e_ms - p.queue_ms + t.negative_tolerance_ms)
      AND (p.ttft_ms IS NULL OR p.s_ttft IS NULL
           OR p.s_ttft <= p.ttft_ms - p.queue_ms + t.negative_tolerance_ms)
),
scored AS (
    SELECT run_id, source_path AS client_source_path, source_line AS client_source_line,
           server_request_key, server_instance, time_diff_ms, max_candidates,
           coalesce(abs(time_diff_ms) / window_ms, 1.0)
               + coalesce(abs(s_output - output_tokens) / (1.0 + output_tolerance), 0.0)
               + coalesce(abs(s_prompt - prompt_tokens) / (1.0 + prompt_tolerance), 0.0)
               + coalesce(abs(network_e2e_ms) / greatest(e2e_ms, 1.0), 0.0)
               + coalesce(abs(network_ttft_ms - network_e2e_ms) / window_ms, 0.0) AS cost,
           CAST(count(*) OVER (PARTITION BY run_id, source_path, source_line) AS INTEGER)
               AS candidates
    FROM passed
)
SELECT run_id, client_source_path, client_source_line, server_request_key, server_instance, cost,
       time_diff_ms, candidates
FROM scored
QUALIFY row_number() OVER (
    PARTITION BY run_id, client_source_path, client_source_line
    ORDER BY cost, server_instance, server_request_key
) <= max_candidates
ORDER BY cost, run_id, client_source_path, client_source_line, server_instance, server_request_key
