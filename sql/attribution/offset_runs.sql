-- attribution/offset_runs: the client runs whose clock offsets (the id_pairs rows per_request.sql applies) differ from those of the last round (incremental attribution).
-- params:  none; reads the temporary table clock_offsets_before (clock_offsets before this round
--          recomputed it)
-- returns: run_id: a run any of whose (client clock, instance) offsets or pair counts changed,
--          appeared or vanished. Every attributed row of such a run gets the new offset
--          (clock_offset_ms, aligned_start_ts: attribution/realign), and its keys with several
--          attempts are attributed again (per_request.sql's retry rule places the client's send
--          with the offset).
SELECT DISTINCT run_id FROM (
    (SELECT run_id, client_clock, instance, offset_ms, used_pairs FROM clock_offsets_before
     WHERE coalesce(method, 'id_pairs') = 'id_pairs'
     EXCEPT
     SELECT run_id, client_clock, instance, offset_ms, used_pairs FROM clock_offsets
     WHERE coalesce(method, 'id_pairs') = 'id_pairs')
    UNION ALL
    (SELECT run_id, client_clock, instance, offset_ms, used_pairs FROM clock_offsets
     WHERE coalesce(method, 'id_pairs') = 'id_pairs'
     EXCEPT
     SELECT run_id, client_clock, instance, offset_ms, used_pairs FROM clock_offsets_before
     WHERE coalesce(method, 'id_pairs') = 'id_pairs')
)
