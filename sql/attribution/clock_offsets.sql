-- attribution/clock_offsets: recomputes clock_offsets: per client run, server instance and client clock, the offset that puts client times on the server clock, from requests paired by ID (method id_pairs).
-- params:  :outlier_mads (DOUBLE, default 3: pairs farther than this many robust deviations from the median are outliers),
--          :min_window_ms (DOUBLE, default 10: never reject a pair this close to the median),
--          :zone_tolerance_ms (DOUBLE, default 120000: how close to a whole quarter hour a zone error lands),
--          :max_offset_ms (DOUBLE, default 1000: a wall-clock offset above this is flagged unsynced),
--          :max_spread_ms (DOUBLE, default 1000: a spread above this is flagged noisy)
-- returns: nothing; inserts the id_pairs rows of clock_offsets (schema/005_attribution; method
--          id_pairs, server_clock wall, the time-series columns NULL). The caller empties the table
--          first, in the same transaction, and then adds the time_series rows (Attributor,
--          SteadyClockOffsets).
--
-- Pairs: a client row whose ID reached the server (id_kind not local) and whose key is unique on both
-- sides (retries and duplicates would pair the wrong attempt), with a start time: start_ts (clock
-- 'wall', epoch) or start_mono_s (clock 'monotonic': vLLM bench perf_counter seconds, any origin).
-- The client sends at start + client_queue_ms. The server's arrival is request_timing.arrival_ts
-- (OTLP span start: ns precision) or, for keys known only from text logs, request_arrived.ts; a
-- text-log time on a whole second was truncated to it (vLLM logs %H:%M:%S), so 500 ms is added to
-- centre its error. d = server arrival - client send, in ms.
-- Estimate, per (run_id, instance, client_clock): m = median(d), s = 1.4826 * MAD(d); pairs with
-- |d - m| > greatest(:outlier_mads * s, :min_window_ms) are outliers; offset_ms = median of the rest,
-- spread_ms = 1.4826 * MAD of the rest. The offset includes the one-way network delay, so applied to a
-- client start it lands where the server saw the request arrive.
-- Flags (comma-separated, NULL when none):
--   zone       a wall-clock offset within :zone_tolerance_ms of a non-zero whole number of quarter
--              hours (zone_shift_minutes): a log time zone (ParseSettings zone) or date set wrong
--   unsynced   a wall-clock offset beyond :max_offset_ms that is not a zone shift: the hosts' clocks
--              disagree (no NTP), or the pairs are wrong
--   noisy      spread_ms beyond :max_spread_ms
--   few_pairs  fewer than 5 pairs kept
INSERT INTO clock_offsets BY NAME
WITH arrivals_once AS (
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
    SELECT coalesce(CAST(:outlier_mads AS DOUBLE), 3.0)            AS outlier_mads,
           coalesce(CAST(:min_window_ms AS DOUBLE), 10.0)          AS min_window_ms,
           coalesce(CAST(:zone_tolerance_ms AS DOUBLE), 120000.0)  AS zone_tolerance_ms,
           coalesce(CAST(:max_offset_ms AS DOUBLE), 1000.0)        AS max_offset_ms,
           coalesce(CAST(:max_spread_ms AS DOUBLE), 1000.0)        AS max_spread_ms
),
client AS (
    -- keys sent once: a grouped count (a hash aggregate) rather than a window count per row, which
    -- partitioned every client row with its columns; any_value is the one row's value
    SELECT any_value(run_id) AS run_id, request_key,
           CASE WHEN any_value(start_ts) IS NOT NULL THEN 'wall' ELSE 'monotonic' END AS client_clock,
           epoch_us(any_value(start_ts)) AS start_us, any_value(start_mono_s) AS start_mono_s,
           coalesce(any_value(client_queue_ms), 0.0) AS queue_ms
    FROM client_timing
    WHERE coalesce(id_kind, 'sent') <> 'local'
      AND (start_ts IS NOT NULL OR start_mono_s IS NOT NULL)
    GROUP BY request_key
    HAVING count(*) = 1
),
timing_arrival AS (
    SELECT request_key, min(instance) AS instance, min(engine) AS engine,
           min(epoch_us(arrival_ts)) AS arrival_us, 0.0 AS centring_ms
    FROM request_timing
    WHERE arrival_ts IS NOT NULL
    GROUP BY request_key
    HAVING min(instance) = max(instance) -- one instance (instance is NOT NULL); cheaper than DISTINCT
),
text_arrival AS (
    SELECT request_key, min(instance) AS instance, min(engine) AS engine,
           min(epoch_us(ts)) AS arrival_us,
           CASE WHEN min(epoch_us(ts)) % 1000000 = 0 THEN 500.0 ELSE 0.0 END AS centring_ms
    FROM arrivals_once
    WHERE ts IS NOT NULL
    GROUP BY request_key
    HAVING count(*) = 1
),
server AS (
    SELECT request_key, instance, engine, 'request_timing' AS server_source, arrival_us,
           centring_ms
    FROM timing_arrival
    UNION ALL
    SELECT a.request_key, a.instance, a.engine, 'request_arrived' AS server_source, a.arrival_us,
           a.centring_ms
    FROM text_arrival a
    ANTI JOIN timing_arrival t ON t.request_key = a.request_key
),
retried AS (
    SELECT request_key FROM arrivals_once GROUP BY request_key HAVING count(*) > 1
),
pairs AS (
    -- wall: difference in whole microseconds first, so epoch magnitudes cost no precision
    SELECT c.run_id, s.instance, s.engine, c.client_clock, s.server_source,
           CASE WHEN c.client_clock = 'wall' THEN (s.arrival_us - c.start_us) / 1000.0
                ELSE s.arrival_us / 1000.0 - c.start_mono_s * 1000.0 END
               + s.centring_ms - c.queue_ms AS d_ms
    FROM client c
    JOIN server s ON s.request_key = c.request_key
    ANTI JOIN retried r ON r.request_key = c.request_key
),
center AS (
    SELECT run_id, instance, client_clock, median(d_ms) AS m, 1.4826 * mad(d_ms) AS s,
           count(*) AS n
    FROM pairs
    GROUP BY run_id, instance, client_clock
),
kept AS (
    SELECT p.*, c.n
    FROM pairs p
    JOIN center c USING (run_id, instance, client_clock)
    CROSS JOIN settings t
    WHERE abs(p.d_ms - c.m) <= greatest(t.outlier_mads * c.s, t.min_window_ms)
),
estimate AS (
    SELECT run_id, instance, client_clock, min(engine) AS engine,
           CASE WHEN count(DISTINCT server_source) > 1 THEN 'mixed'
                ELSE min(server_source) END AS server_source,
           min(n) AS pairs, count(*) AS used_pairs, median(d_ms) AS offset_ms,
           1.4826 * mad(d_ms) AS spread_ms, min(d_ms) AS min_ms, max(d_ms) AS max_ms
    FROM kept
    GROUP BY run_id, instance, client_clock
),
judged AS (
    SELECT e.*,
           CASE WHEN e.client_clock = 'wall'
                     AND round(e.offset_ms / 900000.0) <> 0
                     AND abs(e.offset_ms - round(e.offset_ms / 900000.0) * 900000.0)
                         <= t.zone_tolerance_ms
                THEN CAST(round(e.offset_ms / 900000.0) * 15 AS INTEGER) END AS zone_shift_minutes,
           t.max_offset_ms, t.max_spread_ms
    FROM estimate e
    CROSS JOIN settings t
)
SELECT run_id, instance, engine, client_clock, server_source,
       CAST(pairs AS INTEGER) AS pairs, CAST(used_pairs AS INTEGER) AS used_pairs,
       CAST(pairs - used_pairs AS INTEGER) AS outliers, offset_ms, spread_ms, min_ms, max_ms,
       zone_shift_minutes, 'id_pairs' AS method, 'wall' AS server_clock,
       nullif(concat_ws(', ',
           CASE WHEN zone_shift_minutes IS NOT NULL THEN 'zone' END,
           CASE WHEN client_clock = 'wall' AND zone_shift_minutes IS NULL
                     AND abs(offset_ms) > max_offset_ms THEN 'unsynced' END,
           CASE WHEN spread_ms > max_spread_ms THEN 'noisy' END,
           CASE WHEN used_pairs < 5 THEN 'few_pairs' END), '') AS flag
FROM judged
