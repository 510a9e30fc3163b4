-- queries/clock_offsets: how far apart are the client's and the server's clocks, per run and instance, and can the offset be trusted?
-- params:  none
-- returns: run_id, instance, engine, client_clock, server_source, pairs, used_pairs, outliers,
--          offset_ms, spread_ms, min_ms, max_ms, zone_shift_minutes, flag, hint
--
-- One row per estimate of sql/attribution/clock_offsets.sql (definitions there): offset_ms = median of
-- server arrival minus client send over requests paired by ID, outliers dropped by MAD. hint says what
-- a flag means and what to do. Reads clock_offsets: run the attribution first.
SELECT run_id, instance, engine, client_clock, server_source, pairs, used_pairs, outliers,
       offset_ms, spread_ms, min_ms, max_ms, zone_shift_minutes, flag,
       CASE WHEN zone_shift_minutes IS NOT NULL
            THEN 'the clocks differ by ' || zone_shift_minutes
                 || ' min: a log time zone (or date) set wrong; parse the logs with the right zone'
            WHEN flag LIKE '%unsynced%'
            THEN 'the hosts disagree by more than a second: synchronize them (NTP) or check the pairs'
            WHEN flag LIKE '%noisy%'
            THEN 'paired requests disagree: a coarse server clock (1 s text logs) or mismatched IDs'
            WHEN flag LIKE '%few_pairs%'
            THEN 'few requests paired by ID: the estimate is rough'
       END AS hint
FROM clock_offsets
ORDER BY run_id, instance, client_clock
