-- attribution/redo_keys: the request keys a round of incremental attribution attributes again: those whose inputs changed, and in runs whose clock offsets changed those whose attribution depends on the offset beyond the two aligned columns.
-- params:  none; reads the temporary tables changed_keys and offset_runs
-- returns: request_key
--
-- per_request.sql uses a run's offset for clock_offset_ms and aligned_start_ts of every row
-- (attribution/realign updates those in place), and to place the client's send among a retried
-- request's attempts (the retry rule): only for keys with more than one record or arrival, whose
-- rows say so in server_rows and arrival_rows. Keys with several client rows are taken too (their
-- rows are not unique by client row, which realign joins on).
SELECT request_key FROM changed_keys
UNION
SELECT request_key FROM request_attribution
WHERE run_id IN (SELECT run_id FROM offset_runs)
  AND (client_rows > 1 OR server_rows > 1 OR arrival_rows > 1)
