-- attribution/offset_runs: the client runs whose clock offsets, as per_request.sql applies them, differ from those of the last round (incremental attribution).
-- params:  none; reads the temporary table clock_offsets_before (clock_offsets before this round
--          recomputed it)
-- returns: run_id: a run any of whose applied offsets changed, appeared or vanished: an id_pairs
--          offset of a (client clock, instance), or the run's fallback for a clock (the offset
--          with most pairs, per_request.sql's run_offsets). Every attributed row of such a run
--          gets the new offset (clock_offset_ms, aligned_start_ts: attribution/realign), and its
--          keys with several attempts are attributed again (per_request.sql's retry rule places
--          the client's send with the offset).
--
-- A new pair that leaves the medians where they were changes used_pairs only, which no attributed
-- row reads: such a run is not realigned (docs/design.md#incremental-attribution).
WITH applied_before AS (
    SELECT run_id, client_clock, instance, offset_ms FROM clock_offsets_before
    WHERE coalesce(method, 'id_pairs') = 'id_pairs'
    UNION ALL
    SELECT run_id, client_clock, NULL, arg_max(offset_ms, used_pairs) FROM clock_offsets_before
    WHERE coalesce(method, 'id_pairs') = 'id_pairs'
    GROUP BY run_id, client_clock
),
applied_now AS (
    SELECT run_id, client_clock, instance, offset_ms FROM clock_offsets
    WHERE coalesce(method, 'id_pairs') = 'id_pairs'
    UNION ALL
    SELECT run_id, client_clock, NULL, arg_max(offset_ms, used_pairs) FROM clock_offsets
    WHERE coalesce(method, 'id_pairs') = 'id_pairs'
    GROUP BY run_id, client_clock
)
SELECT DISTINCT run_id FROM (
    (FROM applied_before EXCEPT FROM applied_now)
    UNION ALL
    (FROM applied_now EXCEPT FROM applied_before)
)
