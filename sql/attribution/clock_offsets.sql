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
-- Reads the temporary table attribution_keys (request_keys.sql, made first in the same transaction:
-- docs/design.md#attribution-key-table) for the per-key counts below, and the rows by rowid.
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
WITH settings AS (
    SELECT coalesce(CAST(:outlier_mads AS DOUBLE), 3.0)            AS outlier_mads,
           coalesce(CAST(:min_window_ms AS DOUBLE), 10.0)          AS min_window_ms,
           coalesce(CAST(:zone_tolerance_ms AS DOUBLE), 120000.0)  AS zone_tolerance_ms,
           coalesce(CAST(:max_offset_ms AS DOUBLE), 1000.0)        AS max_offset_ms,
           coalesce(CAST(:max_spread_ms AS DOUBLE), 1000.0)        AS max_spread_ms
),
keys AS (
    -- the per-key counts come from the temporary table attribution_keys (request_keys.sql,
    -- docs/design.md#attribution-key-table), one aggregate shared with per_request.sql:
    -- a key sent once with a start time (clock_client_rows = 1), not local, not retried (at most
    -- one arrival left after the echo rule), that reached the server
    SELECT request_key, clock_client_id, timed_rows, timed_id, arrival_rows, arrival_id
    FROM attribution_keys
    WHERE clock_client_rows = 1 AND arrival_rows <= 1 AND (timed_rows > 0 OR arrival_rows = 1)
),
timed_several AS (
    -- a key with several request_timing rows with an arrival (rare): the earliest, if all of
    -- them are on one instance (instance is NOT NULL)
    SELECT k.clock_client_id, min(t.instance) AS instance, min(t.engine) AS engine,
           min(epoch_us(t.arrival_ts)) AS arrival_us
    FROM (FROM keys WHERE timed_rows > 1) k
    JOIN request_timing t ON t.request_key = k.request_key
    WHERE t.arrival_ts IS NOT NULL
    GROUP BY k.clock_client_id
    HAVING min(t.instance) = max(t.instance)
),
server AS (
    -- the server's arrival: the request_timing arrival (OTLP span start) when the key's records
    -- with one are all on one instance, else its one text-log arrival (request_arrived), by rowid
    SELECT k.clock_client_id, t.instance, t.engine, 'request_timing' AS server_source,
           epoch_us(t.arrival_ts) AS arrival_us, 0.0 AS centring_ms
    FROM keys k
    JOIN request_timing t ON t.rowid = k.timed_id
    WHERE k.timed_rows = 1
    UNION ALL
    SELECT clock_client_id, instance, engine, 'request_timing' AS server_source, arrival_us,
           0.0 AS centring_ms
    FROM timed_several
    UNION ALL
    SELECT k.clock_client_id, a.instance, a.engine, 'request_arrived' AS server_source,
           epoch_us(a.ts) AS arrival_us,
           CASE WHEN epoch_us(a.ts) % 1000000 = 0 THEN 500.0 ELSE 0.0 END AS centring_ms
    FROM keys k
    JOIN request_arrived a ON a.rowid = k.arrival_id
    ANTI JOIN timed_several s ON s.clock_client_id = k.clock_client_id
    WHERE k.arrival_rows = 1 AND k.timed_rows <> 1 AND a.ts IS NOT NULL
),
pairs AS (
    -- the client row by its rowid (an integer join); the client sends at start + client_queue_ms
    -- wall: difference in whole microseconds first, so epoch magnitudes cost no precision
    SELECT c.run_id, s.instance, s.engine,
           CASE WHEN c.start_ts IS NOT NULL THEN 'wall' ELSE 'monotonic' END AS client_clock,
           s.server_source,
           CASE WHEN c.start_ts IS NOT NULL THEN (s.arrival_us - epoch_us(c.start_ts)) / 1000.0
                ELSE s.arrival_us / 1000.0 - c.start_mono_s * 1000.0 END
               + s.centring_ms - coalesce(c.client_queue_ms, 0.0) AS d_ms
    FROM server s
    JOIN client_timing c ON c.rowid = s.clock_client_id
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
