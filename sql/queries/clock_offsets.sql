-- queries/clock_offsets: how far apart are the client's and the server's clocks, per run and instance, and can the offset be trusted?
-- params:  none
-- returns: run_id, instance, engine, method, client_clock, server_clock, server_source, pairs,
--          used_pairs, outliers, offset_ms, spread_ms, min_ms, max_ms, zone_shift_minutes,
--          client_requests, server_requests, fit_ms, runner_up_fit_ms, flag, hint
--
-- One row per estimate of sql/attribution/clock_offsets.sql (definitions there). method id_pairs:
-- offset_ms = median of server arrival minus client send over requests paired by ID, outliers dropped
-- by MAD. method time_series (a steady server clock without ID pairs, TensorRT-LLM perf metrics,
-- SteadyClockOffsets): the offset that best lines up the client's sends with the server's arrivals;
-- fit_ms is its fit and runner_up_fit_ms the best other offset's, client_requests/server_requests
-- the series lengths. hint says what a flag means and what to do. Reads clock_offsets: run the
-- attribution first.
SELECT run_id, instance, engine, coalesce(method, 'id_pairs') AS method, client_clock,
       server_clock, server_source, pairs, used_pairs, outliers, offset_ms, spread_ms, min_ms, max_ms,
       zone_shift_minutes, client_requests, server_requests, fit_ms, runner_up_fit_ms, flag,
       CASE WHEN zone_shift_minutes IS NOT NULL
            THEN 'the clocks differ by ' || zone_shift_minutes
                 || ' min: a log time zone (or date) set wrong; parse the logs with the right zone'
            WHEN flag LIKE '%ambiguous%'
            THEN 'another offset lines the series up nearly as well: requests are not paired by'
                 || ' time; send client IDs, or run fewer overlapping runs per server'
            WHEN flag LIKE '%unsynced%'
            THEN 'the hosts disagree by more than a second: synchronize them (NTP) or check the pairs'
            WHEN flag LIKE '%noisy%'
            THEN 'paired requests disagree: a coarse server clock (1 s text logs) or mismatched IDs'
            WHEN flag LIKE '%few_pairs%'
            THEN 'few requests paired by ID: the estimate is rough'
       END AS hint
FROM clock_offsets
ORDER BY run_id, instance, client_clock, method
