-- attribution/realign: puts a changed clock offset on the attributed rows of its run that are not attributed again (incremental attribution).
-- params:  none; reads the temporary tables offset_runs and redo_keys, and clock_offsets as just
--          recomputed
-- returns: nothing; updates clock_offset_ms and aligned_start_ts of request_attribution with
--          per_request.sql's formulas ("clock": the run's id_pairs offset for the row's instance
--          and client clock, else the run's estimate with most pairs; a wall start is shifted by
--          it, or taken as in sync without one; a monotonic start needs one)
UPDATE request_attribution AS r
SET clock_offset_ms = n.offset_ms,
    aligned_start_ts =
        CASE WHEN r.start_ts IS NOT NULL
             THEN r.start_ts + to_microseconds(CAST(round(coalesce(n.offset_ms, 0.0) * 1000)
                                                    AS BIGINT))
             WHEN n.start_mono_s IS NOT NULL AND n.offset_ms IS NOT NULL
             THEN make_timestamp(CAST(round((n.start_mono_s * 1000.0 + n.offset_ms) * 1000)
                                      AS BIGINT))
        END
FROM (
    SELECT a.run_id, a.client_source_path, a.client_source_line, c.start_mono_s,
           coalesce(io.offset_ms, ro.offset_ms) AS offset_ms
    FROM (SELECT run_id, client_source_path, client_source_line, start_ts, instance
          FROM request_attribution
          WHERE run_id IN (SELECT run_id FROM offset_runs)
            AND request_key NOT IN (SELECT request_key FROM redo_keys)) a
    LEFT JOIN client_timing c
           ON a.start_ts IS NULL AND c.run_id = a.run_id AND c.source_path = a.client_source_path
          AND c.source_line = a.client_source_line
    LEFT JOIN (SELECT run_id, client_clock, instance, offset_ms FROM clock_offsets
               WHERE coalesce(method, 'id_pairs') = 'id_pairs') io
           ON io.run_id = a.run_id AND io.instance = a.instance
          AND io.client_clock = CASE WHEN a.start_ts IS NOT NULL THEN 'wall'
                                     WHEN c.start_mono_s IS NOT NULL THEN 'monotonic' END
    LEFT JOIN (SELECT run_id, client_clock, arg_max(offset_ms, used_pairs) AS offset_ms
               FROM clock_offsets WHERE coalesce(method, 'id_pairs') = 'id_pairs'
               GROUP BY run_id, client_clock) ro
           ON ro.run_id = a.run_id
          AND ro.client_clock = CASE WHEN a.start_ts IS NOT NULL THEN 'wall'
                                     WHEN c.start_mono_s IS NOT NULL THEN 'monotonic' END
) n
WHERE r.run_id = n.run_id AND r.client_source_path = n.client_source_path
  AND r.client_source_line = n.client_source_line
