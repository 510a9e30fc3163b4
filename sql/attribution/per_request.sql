-- attribution/per_request: recomputes request_attribution: each client request joined to the server's records by request_key, split into latency components, with flags.
-- params:  :negative_tolerance_ms (DOUBLE, default 5), :negative_tolerance_pct (DOUBLE, default 1),
--          :warmup_first_n (INTEGER, default 0),
--          :window_ms (DOUBLE, default 1000: how far from the client's send a retried request's
--          attempt may arrive, as --match-window-ms)
-- returns: nothing; inserts every column of request_attribution (schema/005_attribution). The caller
--          empties the table first, in the same transaction (Attributor does both).
--
-- Formulas (docs/design.md#attribution; all durations in ms, per joined request):
--   client_queue_ms = the client's own wait before sending (client_timing.client_queue_ms; 0 when the
--                     client file records none, client_queue_recorded = false)
--   queue_ms, prefill_ms, decode_ms = the server's phases (request_timing)
--   network_ttft_ms = client_ttft_ms - client_queue_ms - (queue_ms + prefill_ms)
--   network_ms      = client_e2e_ms  - client_queue_ms - (queue_ms + prefill_ms + decode_ms)
--                     so client_e2e_ms = client_queue_ms + network_ms + queue_ms + prefill_ms + decode_ms
--   mlt_ms          = (client_e2e_ms - client_ttft_ms) / (output_tokens - 1), client tokens, if > 1
--   tpot_ms         = decode_ms / (server_output_tokens - 1), client tokens when the server has none
--   network_client_gateway_ms = client_e2e_ms - client_queue_ms - gateway_e2e_ms   (three vantage points)
--   network_gateway_engine_ms = gateway_e2e_ms - (queue_ms + prefill_ms + decode_ms)
--                     so network_ms = network_client_gateway_ms + network_gateway_engine_ms; the
--                     gateway leg holds the proxy's own time, its retries and the server's
--                     pre/post-processing (docs/formats/gateways.md#three-vantage-points)
--   dominant        = the largest of network, client_queue, queue, prefill, decode (ties: first wins).
--                     Client queueing competes on its own: it is the load generator's wait, with a
--                     different remedy (client concurrency) from the server's queue (scheduling, batch).
-- Rules:
--   vantage  client_timing rows of vantage 'gateway' (NGINX, Envoy access logs) are a second view of
--            a request some client row (not local) also has: they are not client rows, they split
--            that row's network time when exactly one gateway row has its key (vantage
--            'client+gateway'; more than one: gateway_rows says so and nothing is split). A gateway
--            row whose key no client row has stands in for the client (production, vantage
--            'gateway'): the attribution is from the gateway's view, network is the gateway leg.
--   view     a row without client_ttft_ms (wrk, JMeter, gateways) is attributed by the end-to-end
--            view alone (timing_view 'e2e'): network_ttft_ms is NULL and does not exclude it.
--   join     by request_key (the one RequestKeys.normalize on both sides), except rows whose ID the
--            server never saw (client_timing.id_kind 'local'); with --match heuristic, also by the
--            one-to-one pairs in request_matches (join_status 'heuristic', confidence 'heuristic').
--   identity a server key some client sent (id_kind not local) is the client's: one request on every
--            instance. Any other key is the engine's own and names a request only with its instance:
--            TensorRT-LLM's perf_metrics request_id is a counter that repeats on every server
--            (docs/formats/trtllm.md#request-ids), so its kinds perf_metrics and perf_time_events are
--            always the engine's own, even when a client happened to send the same key. Duplicates
--            and server-side counts are per identity; heuristic pairs name (instance, key).
--   pick     One request_timing row per identity: the one with the most of queue/prefill/decode,
--            then by source_kind.
--   retries  An identity is retried when the server saw the ID arrive more than once, or aborted an
--            attempt (finish_reason abort, or request_aborted) and completed one. When it has more
--            than one record of a source_kind or more than one arrival, the record the client's
--            final timing belongs to is chosen per source_kind among the completed (not aborted)
--            ones: with times (the client's send on that instance's clock, see clock, and every
--            record's arrival_ts) the last arrival within :window_ms of the send, if it is the only
--            one at that time (attempt_rule latest_arrival, or only_completed when just one
--            completed); without times the only completed record (only_completed). Kinds with only
--            aborted records are passed over. When every other kind has its record chosen, that
--            record is attributed (retried = true). Otherwise (no retry: n > 1 children, two
--            instances, a file loaded twice; or no record can be shown to be the final attempt's)
--            the identity is 'duplicate'. A retried identity with one record per kind and one
--            arrival (the aborted attempt left no record) is attributed as usual, retried = true.
--   duplicate a key with more than one client row (a client retry), or an unresolved identity as
--            above: listed with duplicate_reason (client rows, server records, server arrivals),
--            never attributed, never double-counted. A key known only from request_arrived (vLLM
--            text logs: 1 s timestamps, no durations) is 'arrival_only', low confidence, server
--            components NULL (a retried one stays 'duplicate': there is no record to attribute).
--            No server record at all: 'client_only'.
--   clock    clock_offset_ms: the run's id_pairs offset for the matched instance and the row's clock
--            (wall for start_ts, monotonic for start_mono_s), else the run's id_pairs estimate with
--            most pairs (clock_offsets.sql); aligned_start_ts = the start on the server's wall clock
--            (a wall start without an estimate is taken as in sync; a monotonic one stays NULL).
--            time_series offsets map a steady clock (seconds since boot) and are used only to pair
--            requests (heuristic_candidates.sql), never to place a start on a wall clock.
--   derived  a source without prefill or decode (vLLM V0 spans, docs/formats/vllm.md#otlp-spans) gets
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
--   P/D      a request prefilled on one server and decoded on another (pd_halves, made first in
--            the same transaction; docs/formats/pd.md#attribution) is one record, its prefill
--            half's: queue_ms and prefill_ms are the prefill server's, decode_ms the decode
--            server's first scheduled → last token, kv_transfer_ms and decode_queue_ms its own
--            components, and
--              network_ms      = client_e2e_ms - client_queue_ms
--                                - (queue_ms + prefill_ms + kv_transfer_ms + decode_queue_ms + decode_ms)
--              network_ttft_ms = client_ttft_ms - client_queue_ms - (queue_ms + prefill_ms
--                                + kv_transfer_ms + decode_queue_ms + the decode server's first step)
--            kv_transfer and decode_queue compete for dominant (after prefill, before decode).
--            Every other row keeps these four columns NULL and every formula above.
-- Plan (cost only, the same rows): a key exactly one client row sent, not paired heuristically, with
-- at most one record of the kinds a client's key names and at most one arrival can be neither a
-- duplicate nor a retry with several attempts: it is attributed by plain rowid joins (fast_joined),
-- as is a local ID not paired (client_only). Only the other client rows and the records of their
-- keys go through the windows of the rules (slow_joined). key_stats counts all of it: it reads the
-- temporary table attribution_keys (request_keys.sql, docs/design.md#attribution-key-table), one
-- aggregate over the keys that clock_offsets.sql shares, made first in the same transaction
-- (BENCHMARKS.md, "Correlation, round 6").
INSERT INTO request_attribution BY NAME
WITH settings AS (
    SELECT coalesce(CAST(:negative_tolerance_ms AS DOUBLE), 5.0)  AS tolerance_ms,
           coalesce(CAST(:negative_tolerance_pct AS DOUBLE), 1.0) AS tolerance_pct,
           coalesce(CAST(:warmup_first_n AS INTEGER), 0)          AS warmup_first_n,
           coalesce(CAST(:window_ms AS DOUBLE), 1000.0)           AS window_ms
),
paired_keys AS (
    -- keys of client rows --match heuristic paired (request_matches: empty without it)
    SELECT DISTINCT c.request_key
    FROM request_matches m
    JOIN client_timing c
      ON c.run_id = m.run_id AND c.source_path = m.client_source_path
     AND c.source_line = m.client_source_line
),
key_stats AS MATERIALIZED (
    -- per request key: the client rows that sent it (not local), its records of the kinds a
    -- client's key names on every instance (not perf_metrics / perf_time_events), its arrivals,
    -- whether an abort or a heuristic pair touches it, and the lowest rowid of each (the only one
    -- on the fast path). One aggregate over the keys, made once per transaction for this statement
    -- and clock_offsets.sql: the temporary table attribution_keys (request_keys.sql,
    -- docs/design.md#attribution-key-table); a key only a heuristic pair names counts nothing
    SELECT k.request_key, k.client_rows, k.shadows_gateway, k.gateway_rows, k.gateway_id,
           k.record_rows, k.arrival_rows, k.aborted, p.request_key IS NOT NULL AS paired,
           k.client_id, k.record_id, k.arrival_id
    FROM attribution_keys k
    LEFT JOIN paired_keys p ON p.request_key = k.request_key
),
shadowed AS (
    -- keys with client rows and gateway rows: the gateway rows are a second vantage point
    SELECT request_key, gateway_rows, gateway_id FROM key_stats WHERE shadows_gateway
),
run_orders AS (
    -- only with :warmup_first_n > 0: sorting every run by start time costs a sixth of the query
    SELECT c.rowid AS client_id,
           row_number() OVER (
               PARTITION BY c.run_id, c.concurrency
               ORDER BY c.start_ts NULLS LAST, c.start_mono_s NULLS LAST, c.source_path, c.source_line
           ) AS run_order
    FROM client_timing c
    CROSS JOIN settings s
    WHERE s.warmup_first_n > 0
      AND NOT (coalesce(c.vantage = 'gateway', false)
               AND c.request_key IN (SELECT request_key FROM shadowed))
),
fast AS (
    -- the common case, attributed without the rule machinery: a key one client row sent (not
    -- paired heuristically), with at most one record and at most one arrival. Such an identity
    -- is never a duplicate, never multi_attempt; its one record (if any) is chosen
    SELECT client_id, record_id, arrival_id, record_rows, arrival_rows, aborted
    FROM key_stats
    WHERE client_rows = 1 AND record_rows <= 1 AND arrival_rows <= 1 AND NOT paired
    UNION ALL
    -- an ID the server never saw (local), not paired heuristically: client_only
    SELECT c.rowid AS client_id, NULL AS record_id, NULL AS arrival_id, 0 AS record_rows,
           0 AS arrival_rows, false AS aborted
    FROM client_timing c
    WHERE coalesce(c.id_kind, 'sent') = 'local'
      AND NOT EXISTS (SELECT 1 FROM request_matches m
                      WHERE m.run_id = c.run_id AND m.client_source_path = c.source_path
                        AND m.client_source_line = c.source_line)
),
slow_keys AS (
    -- every other key a client sent: all its client rows take the slow path, so the windows per
    -- key below see every row and record of it
    SELECT request_key FROM key_stats
    WHERE client_rows >= 1 AND NOT (client_rows = 1 AND record_rows <= 1 AND arrival_rows <= 1
                                    AND NOT paired)
),
fast_joined AS (
    SELECT c.run_id, c.client_format, c.source_path AS client_source_path,
           c.source_line AS client_source_line, c.request_id, c.request_key, c.start_ts,
           c.concurrency, c.status, c.prompt_tokens, c.output_tokens, CAST(1 AS BIGINT) AS client_rows,
           coalesce(c.id_kind, 'sent') AS id_kind, CAST(NULL AS DOUBLE) AS match_cost,
           CAST(NULL AS INTEGER) AS match_candidates, CAST(NULL AS DOUBLE) AS match_time_diff_ms,
           c.start_mono_s,
           CASE WHEN c.start_ts IS NOT NULL THEN 'wall'
                WHEN c.start_mono_s IS NOT NULL THEN 'monotonic' END AS client_clock,
           c.warmup OR coalesce(o.run_order <= s.warmup_first_n, false) AS warmup,
           c.ttft_ms AS client_ttft_ms, c.e2e_ms AS client_e2e_ms,
           coalesce(c.client_queue_ms, 0.0) AS client_queue_ms,
           c.client_queue_ms IS NOT NULL AS client_queue_recorded,
           coalesce(c.vantage, 'client') AS row_vantage,
           f.record_rows AS server_rows, f.arrival_rows,
           -- retried: an abort besides this one completed record (one arrival at most)
           CASE WHEN f.record_rows = 1 OR f.arrival_rows = 1
                THEN f.record_rows = 1 AND f.aborted
                     AND NOT lower(coalesce(t.finish_reason, ''))
                             IN ('abort', 'aborted', 'cancelled', 'canceled')
           END AS retried,
           CASE WHEN f.record_rows = 1 THEN 'matched'
                WHEN f.arrival_rows = 1 THEN 'arrival_only'
                ELSE 'client_only' END AS join_status,
           CAST(NULL AS VARCHAR) AS duplicate_candidates,
           CAST(NULL AS VARCHAR) AS attempt_rule,
           CASE WHEN f.record_rows = 1 OR f.arrival_rows = 1 THEN 'id' END AS match_method,
           coalesce(t.engine, a.engine) AS engine,
           coalesce(t.instance, a.instance) AS instance,
           CASE WHEN f.record_rows = 1 THEN t.source_kind
                WHEN f.arrival_rows = 1 THEN 'text_log' END AS server_source,
           coalesce(t.arrival_ts, a.ts) AS server_arrival_ts,
           t.request_id AS t_request_id, t.source_path AS t_source_path, t.source_line AS t_source_line,
           t.queue_ms AS t_queue_ms, t.prefill_ms AS t_prefill_ms, t.decode_ms AS t_decode_ms,
           t.server_ttft_ms AS t_ttft_ms, t.e2e_ms AS t_e2e_ms, t.output_tokens AS t_output_tokens,
           pd.decode_instance AS pd_decode_instance, pd.kv_transfer_ms AS pd_kv_transfer_ms,
           pd.decode_queue_ms AS pd_decode_queue_ms, pd.decode_first_ms AS pd_decode_first_ms,
           pd.decode_ms AS pd_decode_ms, pd.decode_output_tokens AS pd_output_tokens,
           pd.kv_transfer_source AS pd_kv_transfer_source,
           s.tolerance_ms, s.tolerance_pct
    FROM fast f
    CROSS JOIN settings s
    JOIN client_timing c ON c.rowid = f.client_id
    LEFT JOIN request_timing t ON t.rowid = f.record_id
    LEFT JOIN pd_halves pd ON pd.prefill_record_id = f.record_id
    LEFT JOIN request_arrived a ON a.rowid = f.arrival_id
    LEFT JOIN run_orders o ON o.client_id = f.client_id
),
client AS (
    -- client_id (the row's rowid) names a client row in the joins and windows below: one BIGINT
    -- hashes and compares much faster than (run_id, source_path, source_line)
    -- only the columns used below: this CTE is materialized, every column kept per client row
    SELECT c.run_id, c.client_format, c.source_path, c.source_line, c.request_id, c.request_key,
           c.start_ts, c.start_mono_s, c.ttft_ms, c.e2e_ms, c.output_tokens, c.client_queue_ms,
           c.prompt_tokens, c.concurrency, c.status, c.warmup, c.id_kind, c.rowid AS client_id,
           coalesce(c.vantage, 'client') AS row_vantage,
           coalesce(m.server_request_key,
                    CASE WHEN coalesce(c.id_kind, 'sent') <> 'local' THEN c.request_key END) AS join_key,
           -- a heuristic pair names the engine's own request: its instance is part of the identity
           CASE WHEN m.server_request_key IS NOT NULL THEN m.server_instance END AS join_scope,
           m.server_request_key IS NOT NULL AS heuristic_match,
           m.cost AS match_cost, m.candidates AS match_candidates, m.time_diff_ms AS match_time_diff_ms,
           CASE WHEN coalesce(c.id_kind, 'sent') = 'local' THEN 1
                ELSE count(*) OVER (PARTITION BY c.request_key, coalesce(c.id_kind, 'sent') = 'local')
           END AS client_rows,
           CASE WHEN c.start_ts IS NOT NULL THEN 'wall'
                WHEN c.start_mono_s IS NOT NULL THEN 'monotonic' END AS client_clock,
           o.run_order
    FROM client_timing c
    LEFT JOIN request_matches m
           ON m.run_id = c.run_id
          AND m.client_source_path = c.source_path
          AND m.client_source_line = c.source_line
    LEFT JOIN run_orders o ON o.client_id = c.rowid
    -- the rows fast leaves: every row of a key in slow_keys, a local ID paired heuristically
    -- (the first condition alone goes down to the scan)
    WHERE (coalesce(c.id_kind, 'sent') = 'local'
           OR c.request_key IN (SELECT request_key FROM slow_keys))
      AND (coalesce(c.id_kind, 'sent') <> 'local' OR m.server_request_key IS NOT NULL)
      AND NOT (coalesce(c.vantage = 'gateway', false)
               AND c.request_key IN (SELECT request_key FROM shadowed))
),
slow_join_keys AS (
    -- the server requests the slow rows name: only their records, arrivals and aborts are read
    SELECT DISTINCT join_key AS request_key FROM client WHERE join_key IS NOT NULL
),
client_keys AS (
    -- the keys some client sent (not local), among those the slow path looks up
    SELECT request_key FROM key_stats
    WHERE client_rows >= 1 AND request_key IN (SELECT request_key FROM slow_join_keys)
),
timing_ids AS NOT MATERIALIZED (
    -- a scan and a join: cheaper to repeat for its two readers than to hold every request_timing
    -- column of 10 M records (BENCHMARKS.md, "Correlation and report", 10 M)
    -- scope NULL: the client's key (one request on every instance); else the instance it belongs to
    SELECT t.rowid AS record_id, t.*,
           CASE WHEN t.source_kind NOT IN ('perf_metrics', 'perf_time_events')
                     AND k.request_key IS NOT NULL THEN NULL ELSE t.instance END AS scope,
           lower(coalesce(t.finish_reason, '')) IN ('abort', 'aborted', 'cancelled', 'canceled')
               AS aborted,
           CAST(t.queue_ms IS NULL AS INTEGER) + CAST(t.prefill_ms IS NULL AS INTEGER)
               + CAST(t.decode_ms IS NULL AS INTEGER) AS missing_phases
    FROM request_timing t
    LEFT JOIN client_keys k ON k.request_key = t.request_key
    WHERE t.request_key IN (SELECT request_key FROM slow_join_keys)
      AND t.rowid NOT IN (SELECT decode_record_id FROM pd_halves)
),
arrival AS (
    SELECT CASE WHEN k.request_key IS NOT NULL THEN NULL ELSE a.instance END AS scope,
           a.request_key, count(*) AS arrival_rows, min(a.ts) AS arrival_ts,
           min(a.engine) AS engine, min(a.instance) AS instance
    FROM request_arrived a
    LEFT JOIN client_keys k ON k.request_key = a.request_key
    WHERE a.request_key IN (SELECT request_key FROM slow_join_keys)
      AND NOT EXISTS (SELECT 1 FROM pd_halves h
                      WHERE h.request_key = a.request_key AND h.decode_instance = a.instance)
    GROUP BY ALL
),
aborts AS (
    SELECT DISTINCT CASE WHEN k.request_key IS NOT NULL THEN NULL ELSE b.instance END AS scope,
           b.request_key
    FROM request_aborted b
    LEFT JOIN client_keys k ON k.request_key = b.request_key
    WHERE b.request_key IN (SELECT request_key FROM slow_join_keys)
),
timing_keys AS (
    SELECT scope, request_key, count(*) AS server_rows, max(kind_rows) > 1 AS multi_record,
           count(*) FILTER (WHERE NOT aborted) AS completed_rows, bool_or(aborted) AS aborted_record
    FROM (SELECT scope, request_key, aborted,
                 count(*) OVER (PARTITION BY scope, request_key, source_kind) AS kind_rows
          FROM timing_ids)
    GROUP BY scope, request_key
),
identities AS (
    -- each client row's server request: its counts, and whether the server saw it retried
    SELECT c.client_id,
           k.request_key IS NOT NULL AS has_timing,
           coalesce(k.server_rows, 0) AS server_rows,
           coalesce(a.arrival_rows, 0) AS arrival_rows,
           coalesce(k.multi_record, false) AS multi_record,
           coalesce(k.multi_record, false) OR coalesce(a.arrival_rows, 0) > 1 AS multi_attempt,
           coalesce(a.arrival_rows, 0) > 1
               OR ((coalesce(k.aborted_record, false) OR b.request_key IS NOT NULL)
                   AND coalesce(k.completed_rows, 0) >= 1) AS retried,
           a.request_key IS NOT NULL AS has_arrival, a.engine AS arrival_engine,
           a.instance AS arrival_instance, a.arrival_ts
    FROM client c
    LEFT JOIN timing_keys k
           ON k.request_key = c.join_key AND k.scope IS NOT DISTINCT FROM c.join_scope
    LEFT JOIN arrival a ON a.request_key = c.join_key AND a.scope IS NOT DISTINCT FROM c.join_scope
    LEFT JOIN aborts b ON b.request_key = c.join_key AND b.scope IS NOT DISTINCT FROM c.join_scope
),
instance_offsets AS (
    SELECT run_id, client_clock, instance, offset_ms FROM clock_offsets
    WHERE coalesce(method, 'id_pairs') = 'id_pairs'
),
run_offsets AS (
    SELECT run_id, client_clock, arg_max(offset_ms, used_pairs) AS offset_ms
    FROM clock_offsets
    WHERE coalesce(method, 'id_pairs') = 'id_pairs'
    GROUP BY run_id, client_clock
),
candidates AS (
    -- every record of the client row's server request, with the client's send on its clock
    SELECT c.client_id, t.record_id, t.source_kind, t.instance,
           t.source_path AS record_path, t.source_line AS record_line, t.arrival_ts, t.aborted,
           t.missing_phases, i.multi_attempt, i.retried,
           CASE WHEN c.start_ts IS NOT NULL
                THEN c.start_ts + to_microseconds(CAST(round(
                         (coalesce(io.offset_ms, ro.offset_ms, 0.0)
                          + coalesce(c.client_queue_ms, 0.0)) * 1000) AS BIGINT))
                WHEN c.start_mono_s IS NOT NULL AND coalesce(io.offset_ms, ro.offset_ms) IS NOT NULL
                THEN make_timestamp(CAST(round(
                         (c.start_mono_s * 1000.0 + coalesce(io.offset_ms, ro.offset_ms)
                          + coalesce(c.client_queue_ms, 0.0)) * 1000) AS BIGINT))
           END AS send_ts
    FROM client c
    JOIN identities i USING (client_id)
    JOIN timing_ids t ON t.request_key = c.join_key AND t.scope IS NOT DISTINCT FROM c.join_scope
    LEFT JOIN instance_offsets io
           ON io.run_id = c.run_id AND io.client_clock = c.client_clock AND io.instance = t.instance
    LEFT JOIN run_offsets ro ON ro.run_id = c.run_id AND ro.client_clock = c.client_clock
),
attempts AS (
    SELECT k.*,
           NOT aborted AND (send_ts IS NULL OR arrival_ts IS NULL
                            OR arrival_ts BETWEEN send_ts - to_microseconds(CAST(s.window_ms * 1000 AS BIGINT))
                                              AND send_ts + to_microseconds(CAST(s.window_ms * 1000 AS BIGINT)))
               AS eligible,
           send_ts IS NOT NULL AND arrival_ts IS NOT NULL AS timed
    FROM candidates k
    CROSS JOIN settings s
),
kinds AS (
    SELECT a.*,
           count(*) FILTER (WHERE NOT aborted) OVER w AS kind_completed,
           count(*) FILTER (WHERE eligible) OVER w AS kind_eligible,
           bool_and(timed) OVER w AS kind_timed,
           max(arrival_ts) FILTER (WHERE eligible) OVER w AS kind_last
    FROM attempts a
    WINDOW w AS (PARTITION BY client_id, source_kind)
),
resolved_kinds AS (
    -- per source_kind: can the final attempt's record be told (NULL: only aborted records, passed
    -- over), and is this record it
    SELECT k.*,
           CASE WHEN NOT multi_attempt THEN true
                WHEN NOT retried THEN false
                WHEN kind_completed = 0 THEN NULL
                WHEN kind_timed
                    THEN kind_eligible >= 1
                         AND count(*) FILTER (WHERE eligible AND arrival_ts = kind_last)
                                 OVER (PARTITION BY client_id, source_kind) = 1
                ELSE kind_completed = 1 END AS kind_resolved,
           CASE WHEN NOT multi_attempt THEN true
                WHEN kind_timed THEN eligible AND arrival_ts = kind_last
                ELSE NOT aborted END AS kind_choice
    FROM kinds k
),
resolution AS (
    SELECT client_id, coalesce(bool_and(kind_resolved), false) AS resolved
    FROM resolved_kinds
    GROUP BY client_id
),
chosen AS (
    -- the record attributed; for an identity that stays a duplicate, the record its engine,
    -- instance and source are shown from
    SELECT k.client_id, k.record_id, r.resolved,
           CASE WHEN k.multi_attempt AND k.retried AND r.resolved
                THEN CASE WHEN k.kind_completed = 1 THEN 'only_completed' ELSE 'latest_arrival' END
           END AS attempt_rule
    FROM resolved_kinds k
    JOIN resolution r USING (client_id)
    QUALIFY row_number() OVER (
        PARTITION BY k.client_id
        ORDER BY coalesce(k.kind_choice AND k.kind_resolved, false) DESC, k.missing_phases,
                 k.source_kind, k.instance, k.record_path, k.record_line
    ) = 1
),
slow_joined AS (
    SELECT c.run_id, c.client_format, c.source_path AS client_source_path,
           c.source_line AS client_source_line, c.request_id, c.request_key, c.start_ts,
           c.concurrency, c.status, c.prompt_tokens, c.output_tokens, c.client_rows,
           coalesce(c.id_kind, 'sent') AS id_kind, c.match_cost, c.match_candidates,
           c.match_time_diff_ms, c.start_mono_s, c.client_clock,
           c.warmup OR coalesce(c.run_order <= s.warmup_first_n, false) AS warmup,
           c.ttft_ms AS client_ttft_ms, c.e2e_ms AS client_e2e_ms,
           coalesce(c.client_queue_ms, 0.0) AS client_queue_ms,
           c.client_queue_ms IS NOT NULL AS client_queue_recorded, c.row_vantage,
           i.server_rows, i.arrival_rows,
           CASE WHEN i.has_timing OR i.has_arrival THEN i.retried END AS retried,
           CASE WHEN NOT i.has_timing AND NOT i.has_arrival THEN 'client_only'
                WHEN c.client_rows > 1 OR (i.has_timing AND NOT ch.resolved)
                     OR (NOT i.has_timing AND i.arrival_rows > 1) THEN 'duplicate'
                WHEN i.has_timing AND c.heuristic_match THEN 'heuristic'
                WHEN i.has_timing THEN 'matched'
                ELSE 'arrival_only' END AS join_status,
           nullif(concat_ws(', ',
               CASE WHEN c.client_rows > 1 THEN 'client rows' END,
               CASE WHEN i.has_timing AND NOT ch.resolved AND i.multi_record THEN 'server records' END,
               CASE WHEN i.arrival_rows > 1 AND NOT coalesce(ch.resolved, false)
                    THEN 'server arrivals' END), '') AS duplicate_candidates,
           ch.attempt_rule,
           CASE WHEN NOT i.has_timing AND NOT i.has_arrival THEN NULL
                WHEN c.heuristic_match THEN 'heuristic' ELSE 'id' END AS match_method,
           coalesce(t.engine, i.arrival_engine) AS engine,
           coalesce(t.instance, i.arrival_instance) AS instance,
           CASE WHEN i.has_timing THEN t.source_kind
                WHEN i.has_arrival THEN 'text_log' END AS server_source,
           coalesce(t.arrival_ts, i.arrival_ts) AS server_arrival_ts,
           t.request_id AS t_request_id, t.source_path AS t_source_path, t.source_line AS t_source_line,
           t.queue_ms AS t_queue_ms, t.prefill_ms AS t_prefill_ms, t.decode_ms AS t_decode_ms,
           t.server_ttft_ms AS t_ttft_ms, t.e2e_ms AS t_e2e_ms, t.output_tokens AS t_output_tokens,
           pd.decode_instance AS pd_decode_instance, pd.kv_transfer_ms AS pd_kv_transfer_ms,
           pd.decode_queue_ms AS pd_decode_queue_ms, pd.decode_first_ms AS pd_decode_first_ms,
           pd.decode_ms AS pd_decode_ms, pd.decode_output_tokens AS pd_output_tokens,
           pd.kv_transfer_source AS pd_kv_transfer_source,
           s.tolerance_ms, s.tolerance_pct
    FROM client c
    CROSS JOIN settings s
    JOIN identities i USING (client_id)
    -- two build sides beside identities: with five 10 M-row hash tables (resolution, arrival and
    -- the wide timing_ids too) this one pipeline ran out of the 1 GB memory_limit; identities
    -- carries the arrival, chosen the resolution, and record_id is request_timing's rowid
    LEFT JOIN chosen ch USING (client_id)
    LEFT JOIN request_timing t ON t.rowid = ch.record_id
    LEFT JOIN pd_halves pd ON pd.prefill_record_id = ch.record_id
),
joined AS (
    -- the two paths give the same columns; every client row is in exactly one of them
    SELECT * FROM fast_joined
    UNION ALL BY NAME
    SELECT * FROM slow_joined
),
gateway_view AS (
    -- the one gateway row of a key a client row has (docs/formats/gateways.md#three-vantage-points)
    SELECT w.request_key, w.gateway_rows,
           CASE WHEN w.gateway_rows = 1 THEN g.e2e_ms END AS gateway_e2e_ms
    FROM shadowed w
    JOIN client_timing g ON g.rowid = w.gateway_id
),
aligned AS (
    SELECT j.*,
           coalesce(io.offset_ms, ro.offset_ms) AS clock_offset_ms,
           CASE WHEN j.row_vantage = 'gateway' THEN 'gateway'
                WHEN gv.gateway_e2e_ms IS NOT NULL THEN 'client+gateway'
                ELSE 'client' END AS vantage,
           CASE WHEN j.row_vantage = 'gateway' THEN 1 ELSE coalesce(gv.gateway_rows, 0) END
               AS gateway_rows,
           CASE WHEN j.row_vantage = 'gateway' THEN j.client_e2e_ms ELSE gv.gateway_e2e_ms END
               AS gateway_e2e_ms
    FROM joined j
    LEFT JOIN gateway_view gv ON gv.request_key = j.request_key AND j.row_vantage = 'client'
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
           CASE WHEN join_status NOT IN ('matched', 'heuristic') THEN NULL
                WHEN pd_decode_instance IS NOT NULL THEN pd_output_tokens
                ELSE t_output_tokens END AS server_output_tokens,
           -- a P/D request (docs/formats/pd.md#attribution): the servers' first token and end,
           -- from the prefill server's arrival through the transfer to the decode server's
           CASE WHEN join_status NOT IN ('matched', 'heuristic') THEN NULL
                WHEN pd_decode_instance IS NOT NULL
                THEN t_queue_ms + t_prefill_ms + pd_kv_transfer_ms + pd_decode_queue_ms
                     + pd_decode_first_ms
                ELSE t_ttft_ms END AS server_ttft_ms,
           CASE WHEN join_status NOT IN ('matched', 'heuristic') THEN NULL
                WHEN pd_decode_instance IS NOT NULL
                THEN t_queue_ms + t_prefill_ms + pd_kv_transfer_ms + pd_decode_queue_ms
                     + pd_decode_ms
                ELSE t_e2e_ms END AS server_e2e_ms,
           CASE WHEN join_status IN ('matched', 'heuristic') THEN t_queue_ms END AS queue_ms,
           CASE WHEN join_status IN ('matched', 'heuristic')
                THEN coalesce(t_prefill_ms, t_ttft_ms - t_queue_ms) END AS prefill_ms,
           CASE WHEN join_status NOT IN ('matched', 'heuristic') THEN NULL
                WHEN pd_decode_instance IS NOT NULL THEN pd_decode_ms
                ELSE coalesce(t_decode_ms, t_e2e_ms - t_ttft_ms) END AS decode_ms,
           CASE WHEN join_status IN ('matched', 'heuristic') THEN pd_kv_transfer_ms END
               AS kv_transfer_ms,
           CASE WHEN join_status IN ('matched', 'heuristic') THEN pd_decode_queue_ms END
               AS decode_queue_ms,
           CASE WHEN join_status IN ('matched', 'heuristic') THEN pd_decode_instance END
               AS decode_instance,
           CASE WHEN join_status IN ('matched', 'heuristic') THEN pd_kv_transfer_source END
               AS kv_transfer_source,
           CASE WHEN join_status IN ('matched', 'heuristic') THEN pd_decode_first_ms END
               AS decode_first_ms,
           join_status IN ('matched', 'heuristic')
               AND ((t_prefill_ms IS NULL AND t_ttft_ms - t_queue_ms IS NOT NULL)
                    OR (t_decode_ms IS NULL AND t_e2e_ms - t_ttft_ms IS NOT NULL)) AS server_derived
    FROM aligned j
),
components AS (
    SELECT s.*,
           CASE WHEN decode_instance IS NULL
                THEN client_ttft_ms - client_queue_ms - (queue_ms + prefill_ms)
                ELSE client_ttft_ms - client_queue_ms
                     - (queue_ms + prefill_ms + kv_transfer_ms + decode_queue_ms + decode_first_ms)
           END AS network_ttft_ms,
           CASE WHEN decode_instance IS NULL
                THEN client_e2e_ms - client_queue_ms - (queue_ms + prefill_ms + decode_ms)
                ELSE client_e2e_ms - client_queue_ms
                     - (queue_ms + prefill_ms + kv_transfer_ms + decode_queue_ms + decode_ms)
           END AS network_ms,
           CASE WHEN vantage = 'client+gateway'
                THEN client_e2e_ms - client_queue_ms - gateway_e2e_ms END
               AS network_client_gateway_ms,
           CASE WHEN vantage <> 'client' AND decode_instance IS NULL
                THEN gateway_e2e_ms - (queue_ms + prefill_ms + decode_ms)
                WHEN vantage <> 'client'
                THEN gateway_e2e_ms
                     - (queue_ms + prefill_ms + kv_transfer_ms + decode_queue_ms + decode_ms)
           END AS network_gateway_engine_ms,
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
                WHEN decode_instance IS NOT NULL THEN
                    CASE WHEN network_ms >= greatest(client_queue_ms, queue_ms, prefill_ms,
                                                     kv_transfer_ms, decode_queue_ms, decode_ms)
                             THEN 'network'
                         WHEN client_queue_ms >= greatest(queue_ms, prefill_ms, kv_transfer_ms,
                                                          decode_queue_ms, decode_ms)
                             THEN 'client_queue'
                         WHEN queue_ms >= greatest(prefill_ms, kv_transfer_ms, decode_queue_ms,
                                                   decode_ms) THEN 'queue'
                         WHEN prefill_ms >= greatest(kv_transfer_ms, decode_queue_ms, decode_ms)
                             THEN 'prefill'
                         WHEN kv_transfer_ms >= greatest(decode_queue_ms, decode_ms)
                             THEN 'kv_transfer'
                         WHEN decode_queue_ms >= decode_ms THEN 'decode_queue'
                         ELSE 'decode' END
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
                WHEN network_ms IS NULL OR (network_ttft_ms IS NULL AND client_ttft_ms IS NOT NULL)
                    THEN 'incomplete timing'
                WHEN e2e_reason IS NOT NULL OR ttft_reason IS NOT NULL THEN 'suspect'
           END AS exclusion
    FROM flagged f
)
SELECT run_id, client_format, client_source_path, client_source_line, request_id, request_key,
       start_ts, concurrency, status, warmup, join_status,
       CASE WHEN join_status = 'heuristic' THEN 'heuristic'
            WHEN join_status = 'matched' AND network_ms IS NOT NULL
                 AND (network_ttft_ms IS NOT NULL OR client_ttft_ms IS NULL)
                THEN 'high'
            WHEN join_status IN ('matched', 'arrival_only') THEN 'low' END AS confidence,
       client_rows, server_rows, arrival_rows, engine, instance, server_source, server_request_id,
       server_source_path, server_source_line, server_arrival_ts, prompt_tokens, output_tokens,
       server_output_tokens, coalesce(token_mismatch, false) AS token_mismatch,
       client_ttft_ms, client_e2e_ms, client_queue_ms, client_queue_recorded, network_ttft_ms,
       network_ms, queue_ms, prefill_ms, decode_ms, server_derived, server_ttft_ms, server_e2e_ms,
       mlt_ms, tpot_ms, dominant, suspect, suspect_reason,
       exclusion IS NULL AS included, exclusion, id_kind, match_method, match_cost,
       match_candidates, duplicate_reason, clock_offset_ms, aligned_start_ts, retried,
       CASE WHEN join_status IN ('matched', 'heuristic') THEN attempt_rule END AS attempt_rule,
       vantage,
       CASE WHEN client_ttft_ms IS NOT NULL THEN 'ttft' WHEN client_e2e_ms IS NOT NULL THEN 'e2e'
       END AS timing_view,
       gateway_rows, gateway_e2e_ms, network_client_gateway_ms, network_gateway_engine_ms,
       kv_transfer_ms, decode_queue_ms, decode_instance, kv_transfer_source
FROM judged
