-- queries/batch_vs_concurrency: does the server batch what the client sends? The client's concurrency against the server's real batch size and queue, per run, level and instance, over time.
-- params:  :run_id (VARCHAR, default every run), :bucket_s (DOUBLE, default none: one window per
--          run and concurrency level; S > 0: windows of S seconds)
-- returns: run_id, concurrency, instance, window_start, window_end, client_requests,
--          client_in_flight_mean, client_in_flight_max, server_source, server_samples,
--          server_batch_mean, server_batch_p50, server_batch_max, server_waiting_mean,
--          server_waiting_max, batch_below_concurrency
--
-- Client side: requests with status ok (warm-up included: they load the server too) placed on the
-- server clock (aligned_start_ts, see attribution/clock_offsets) for client_e2e_ms. A window is a run's
-- concurrency level from its first start to its last end (or S-second slices of it).
-- client_requests = requests starting in the window; client_in_flight_mean = the time-weighted number
-- of requests in flight (sum of their overlap with the window / its length); client_in_flight_max =
-- the most in flight at the window's start or at any request start in it.
-- Server side: on each instance the level's requests were paired with, the batch sizes of
-- batch_step rows in the window (decode and mixed steps; prefill-only steps of engines that log the
-- running count before admitting, such as SGLang, would undercount) with their queue (queued), else
-- the running and waiting counts of engine_stats snapshots (server_source says which).
-- batch_below_concurrency = the server never ran as many requests at once as the client had in flight
-- (the smaller of its level and client_in_flight_max), seen in at least 3 samples or with a queue
-- (server_waiting_max > 0); NULL when the evidence is thinner. The seed's pitfall: 16 client
-- connections may be a batch of 4 on the server while the rest queues. Unpaired runs have no instance
-- and no server columns.
WITH settings AS (
    SELECT CAST(:run_id AS VARCHAR) AS run_id,
           to_microseconds(CAST(round(coalesce(CAST(:bucket_s AS DOUBLE), 1.0e9) * 1.0e6) AS BIGINT))
               AS step
),
requests AS (
    SELECT a.run_id, a.concurrency, a.instance, a.aligned_start_ts AS start_ts,
           a.aligned_start_ts + to_microseconds(CAST(round(a.client_e2e_ms * 1000) AS BIGINT)) AS end_ts
    FROM request_attribution a
    CROSS JOIN settings s
    WHERE a.status = 'ok' AND a.aligned_start_ts IS NOT NULL AND a.client_e2e_ms IS NOT NULL
      AND (s.run_id IS NULL OR a.run_id = s.run_id)
),
edges AS (
    SELECT run_id, concurrency, start_ts AS ts, 1 AS delta, true AS is_start FROM requests
    UNION ALL
    SELECT run_id, concurrency, end_ts AS ts, -1 AS delta, false AS is_start FROM requests
),
in_flight AS (
    -- requests of the level with start_ts <= t < end_ts at each start t: a running sum of +1 at
    -- every start and -1 at every end up to and including t (RANGE counts every edge at t), one
    -- pass instead of a count per request over all others (quadratic: hours at 1 M requests)
    SELECT run_id, concurrency, start_ts, in_flight
    FROM (SELECT run_id, concurrency, ts AS start_ts, is_start,
                 sum(delta) OVER (PARTITION BY run_id, concurrency ORDER BY ts
                                  RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS in_flight
          FROM edges)
    WHERE is_start
),
levels AS (
    SELECT run_id, concurrency, min(start_ts) AS level_start, max(end_ts) AS level_end
    FROM requests
    GROUP BY run_id, concurrency
),
windows AS (
    SELECT l.run_id, l.concurrency, w.window_start,
           least(w.window_start + s.step, l.level_end) AS window_end
    FROM levels l
    CROSS JOIN settings s
    CROSS JOIN LATERAL (SELECT unnest(generate_series(l.level_start, l.level_end, s.step))
                            AS window_start) w
    WHERE w.window_start < l.level_end
),
client AS (
    SELECT w.run_id, w.concurrency, w.window_start, w.window_end,
           count(*) FILTER (WHERE r.start_ts >= w.window_start AND r.start_ts < w.window_end)
               AS client_requests,
           sum(greatest(0, epoch_ms(least(r.end_ts, w.window_end))
                           - epoch_ms(greatest(r.start_ts, w.window_start))))
               / nullif(epoch_ms(w.window_end) - epoch_ms(w.window_start), 0)
               AS client_in_flight_mean,
           count(*) FILTER (WHERE r.start_ts <= w.window_start) AS in_flight_at_window_start
    FROM windows w
    JOIN requests r
      ON r.run_id = w.run_id AND r.concurrency IS NOT DISTINCT FROM w.concurrency
     AND r.start_ts < w.window_end AND r.end_ts > w.window_start
    GROUP BY w.run_id, w.concurrency, w.window_start, w.window_end
),
peaks AS (
    SELECT w.run_id, w.concurrency, w.window_start, max(f.in_flight) AS client_in_flight_max
    FROM windows w
    JOIN in_flight f
      ON f.run_id = w.run_id AND f.concurrency IS NOT DISTINCT FROM w.concurrency
     AND f.start_ts >= w.window_start AND f.start_ts < w.window_end
    GROUP BY w.run_id, w.concurrency, w.window_start
),
level_instances AS (
    SELECT DISTINCT run_id, concurrency, instance FROM requests WHERE instance IS NOT NULL
),
steps AS (
    SELECT w.run_id, w.concurrency, w.window_start, i.instance,
           count(b.batch_size) AS samples,
           avg(b.batch_size) AS batch_mean,
           quantile_cont(b.batch_size, 0.5) AS batch_p50,
           max(b.batch_size) AS batch_max,
           avg(b.queued) AS waiting_mean,
           max(b.queued) AS waiting_max
    FROM windows w
    JOIN level_instances i ON i.run_id = w.run_id AND i.concurrency IS NOT DISTINCT FROM w.concurrency
    JOIN batch_step b
      ON b.instance = i.instance AND b.ts >= w.window_start AND b.ts < w.window_end
     AND b.phase IN ('decode', 'mixed') AND b.batch_size IS NOT NULL
    GROUP BY w.run_id, w.concurrency, w.window_start, i.instance
),
snapshots AS (
    SELECT w.run_id, w.concurrency, w.window_start, i.instance,
           count(e.running) AS samples,
           avg(e.running) AS batch_mean,
           quantile_cont(e.running, 0.5) AS batch_p50,
           max(e.running) AS batch_max,
           avg(e.waiting) AS waiting_mean,
           max(e.waiting) AS waiting_max
    FROM windows w
    JOIN level_instances i ON i.run_id = w.run_id AND i.concurrency IS NOT DISTINCT FROM w.concurrency
    JOIN engine_stats e
      ON e.instance = i.instance AND e.ts >= w.window_start AND e.ts < w.window_end
     AND e.running IS NOT NULL
    GROUP BY w.run_id, w.concurrency, w.window_start, i.instance
),
server AS (
    SELECT w.run_id, w.concurrency, w.window_start, i.instance,
           CASE WHEN st.samples > 0 THEN 'batch_step' WHEN sn.samples > 0 THEN 'engine_stats' END
               AS server_source,
           CASE WHEN st.samples > 0 THEN st.samples ELSE sn.samples END AS server_samples,
           CASE WHEN st.samples > 0 THEN st.batch_mean ELSE sn.batch_mean END AS server_batch_mean,
           CASE WHEN st.samples > 0 THEN st.batch_p50 ELSE sn.batch_p50 END AS server_batch_p50,
           CASE WHEN st.samples > 0 THEN st.batch_max ELSE sn.batch_max END AS server_batch_max,
           CASE WHEN st.samples > 0 THEN st.waiting_mean ELSE sn.waiting_mean END AS server_waiting_mean,
           CASE WHEN st.samples > 0 THEN st.waiting_max ELSE sn.waiting_max END AS server_waiting_max
    FROM windows w
    JOIN level_instances i ON i.run_id = w.run_id AND i.concurrency IS NOT DISTINCT FROM w.concurrency
    LEFT JOIN steps st
           ON st.run_id = w.run_id AND st.concurrency IS NOT DISTINCT FROM w.concurrency
          AND st.window_start = w.window_start AND st.instance = i.instance
    LEFT JOIN snapshots sn
           ON sn.run_id = w.run_id AND sn.concurrency IS NOT DISTINCT FROM w.concurrency
          AND sn.window_start = w.window_start AND sn.instance = i.instance
)
SELECT c.run_id, c.concurrency, s.instance, c.window_start, c.window_end, c.client_requests,
       c.client_in_flight_mean,
       greatest(c.in_flight_at_window_start, coalesce(p.client_in_flight_max, 0))
           AS client_in_flight_max,
       s.server_source,
       coalesce(s.server_samples, 0) AS server_samples, s.server_batch_mean, s.server_batch_p50,
       s.server_batch_max, s.server_waiting_mean, s.server_waiting_max,
       CASE WHEN s.server_samples >= 3 OR s.server_waiting_max > 0
            THEN s.server_batch_max
                 < least(coalesce(c.concurrency, 2147483647),
                         greatest(c.in_flight_at_window_start, coalesce(p.client_in_flight_max, 0)))
       END AS batch_below_concurrency
FROM client c
LEFT JOIN peaks p
       ON p.run_id = c.run_id AND p.concurrency IS NOT DISTINCT FROM c.concurrency
      AND p.window_start = c.window_start
LEFT JOIN server s
       ON s.run_id = c.run_id AND s.concurrency IS NOT DISTINCT FROM c.concurrency
      AND s.window_start = c.window_start
ORDER BY c.run_id, c.concurrency NULLS LAST, s.instance NULLS LAST, c.window_start
