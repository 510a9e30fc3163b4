-- attribution/steady_clock_series: which client sends and steady-clock server arrivals have no request paired by ID, so that only their time series can align the clocks?
-- params:  none
-- returns: side (client | server), series (client: run_id; server: instance or P/D clock group), client_clock (client:
--          wall | monotonic; server: NULL), engine (server: the engine; client: NULL), at_ms,
--          ttft_ms, e2e_ms; ordered by side, series, client_clock, at_ms
--
-- Read by SteadyClockOffsets (method time_series of clock_offsets) after the id_pairs estimates are
-- in clock_offsets. TensorRT-LLM's /perf_metrics give arrival_mono_s, seconds on the server's steady
-- clock (time since boot, docs/formats/trtllm.md#perf-metrics), and a request_id that is the engine's own
-- counter (section 3.3), so neither an ID nor a wall time pairs them with client rows.
-- client: rows of status ok with a start, whose ID no server record can be joined on (id_kind local,
--         or no request_timing row outside the engine-counter kinds and no request_arrived row has
--         the key), in (run_id, client clock) series that have no id_pairs estimate: a run that
--         paired by ID has its offset already. at_ms = the send, start + client_queue_ms, in ms on
--         the client's own clock (epoch ms for wall, perf_counter ms for monotonic); ttft_ms and
--         e2e_ms count from the send (the client's values minus its queue).
-- server: request_timing rows with arrival_mono_s and no wall arrival, whose key no client sent
--         (or that come from an engine-counter source: perf_metrics, perf_time_events), not aborted,
--         one per (instance, request_key, arrival); at_ms = arrival_mono_s in ms; ttft_ms and e2e_ms
--         the server's (from its arrival). P/D (docs/formats/pd.md#attribution): the decode half of a
--         request in pd_halves (made first in the same transaction) is left out, so a run links to
--         the prefill server it was sent to, and the prefill half's ttft_ms and e2e_ms are the two
--         halves' sums (prefill e2e + the decode server's queued time + its first step, or + its
--         whole time).
--         The prefill halves of context servers that share a decode server (transitively) are one
--         series, named by their instances joined with '+' in order (pd_clock_groups): behind one
--         TensorRT-LLM disaggregated server every worker writes its times on that server's steady
--         clock, and its router spreads a run over all of them (docs/formats/pd.md#tensorrt-llm);
--         heuristic_candidates.sql maps a link to such a series back to its members.
WITH RECURSIVE client_keys AS (
    SELECT DISTINCT request_key FROM client_timing WHERE coalesce(id_kind, 'sent') <> 'local'
),
id_server_keys AS (
    SELECT request_key FROM request_timing
    WHERE source_kind NOT IN ('perf_metrics', 'perf_time_events')
    UNION
    SELECT request_key FROM request_arrived
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
client AS (
    SELECT 'client' AS side, c.run_id AS series,
           CASE WHEN c.start_ts IS NOT NULL THEN 'wall' ELSE 'monotonic' END AS client_clock,
           CAST(NULL AS VARCHAR) AS engine,
           CASE WHEN c.start_ts IS NOT NULL THEN epoch_us(c.start_ts) / 1000.0
                ELSE c.start_mono_s * 1000.0 END + coalesce(c.client_queue_ms, 0.0) AS at_ms,
           c.ttft_ms - coalesce(c.client_queue_ms, 0.0) AS ttft_ms,
           c.e2e_ms - coalesce(c.client_queue_ms, 0.0) AS e2e_ms
    FROM client_timing c
    WHERE c.status = 'ok'
      AND (c.start_ts IS NOT NULL OR c.start_mono_s IS NOT NULL)
      AND (coalesce(c.id_kind, 'sent') = 'local'
           OR NOT EXISTS (SELECT 1 FROM id_server_keys k WHERE k.request_key = c.request_key))
      AND NOT EXISTS (
          SELECT 1 FROM clock_offsets o
          WHERE o.run_id = c.run_id
            AND o.client_clock = CASE WHEN c.start_ts IS NOT NULL THEN 'wall' ELSE 'monotonic' END
            AND coalesce(o.method, 'id_pairs') = 'id_pairs')
),
server AS (
    SELECT 'server' AS side,
           CASE WHEN h.request_key IS NULL THEN t.instance ELSE coalesce(g.clock_group, t.instance)
           END AS series,
           CAST(NULL AS VARCHAR) AS client_clock,
           t.engine, t.arrival_mono_s * 1000.0 AS at_ms,
           CASE WHEN h.request_key IS NULL THEN t.server_ttft_ms
                ELSE coalesce(t.e2e_ms, t.server_ttft_ms) + h.decode_wait_ms + h.decode_first_ms
           END AS ttft_ms,
           CASE WHEN h.request_key IS NULL THEN t.e2e_ms
                ELSE coalesce(t.e2e_ms, t.server_ttft_ms) + h.decode_wait_ms + h.decode_ms
           END AS e2e_ms
    FROM request_timing t
    LEFT JOIN pd_halves h ON h.prefill_record_id = t.rowid
    LEFT JOIN pd_clock_groups g ON g.instance = t.instance
    WHERE t.arrival_mono_s IS NOT NULL
      AND t.rowid NOT IN (SELECT decode_record_id FROM pd_halves)
      AND t.arrival_ts IS NULL
      AND (t.source_kind IN ('perf_metrics', 'perf_time_events')
           OR NOT EXISTS (SELECT 1 FROM client_keys k WHERE k.request_key = t.request_key))
      AND lower(coalesce(t.finish_reason, '')) NOT IN ('abort', 'aborted', 'cancelled', 'canceled')
    QUALIFY row_number() OVER (
        PARTITION BY t.instance, t.request_key, t.arrival_mono_s
        ORDER BY t.source_kind, t.source_path, t.source_line
    ) = 1
)
SELECT side, series, client_clock, engine, at_ms, ttft_ms, e2e_ms FROM client
UNION ALL
SELECT side, series, client_clock, engine, at_ms, ttft_ms, e2e_ms FROM server
ORDER BY side, series, client_clock NULLS FIRST, at_ms
