-- queries/network_outliers: which requests lost unusual time outside the engine (transport, proxies, serialization), and which pairs have impossible negative network times?
-- params:  :run_id (VARCHAR, default every run), :z (DOUBLE, default 3.5), :min_ms (DOUBLE,
--          default 20)
-- returns: kind, request_key, run_id, instance, aligned_start_ts, client_ttft_ms, client_e2e_ms,
--          network_ms, network_ttft_ms, run_network_p50_ms, run_network_mad_ms, robust_z,
--          clock_offset_ms, suspect_reason
--
-- Population: paired client requests (matched or heuristic) with status ok, not warm-up and a
-- network time. Per run, the median network_ms and its median absolute deviation (MAD); robust_z =
-- (network_ms - median) / (1.4826 * MAD), a z-score that the outliers themselves cannot inflate.
-- slow: robust_z > :z and network_ms at least :min_ms above the median (a tiny MAD must not turn a
-- 2 ms wobble into an outlier). suspect: network or network TTFT below minus the tolerance (see
-- attribution/per_request): an ID or clock mismatch, or a client that timed the first token from
-- something else (an SSE heartbeat), not a fast network; left out of the aggregates.
-- Slow requests clustered in time (aligned_start_ts) point at a network episode or a proxy, spread
-- out at a congested link or a far client.
WITH settings AS (
    SELECT CAST(:run_id AS VARCHAR) AS only_run,
           coalesce(CAST(:z AS DOUBLE), 3.5) AS z,
           coalesce(CAST(:min_ms AS DOUBLE), 20.0) AS min_ms
),
paired AS (
    -- the columns used, not a.*: every request passes through the scoring
    SELECT a.request_key, a.run_id, a.instance, a.aligned_start_ts, a.client_ttft_ms,
           a.client_e2e_ms, a.network_ms, a.network_ttft_ms, a.clock_offset_ms, a.suspect,
           a.suspect_reason
    FROM request_attribution a
    CROSS JOIN settings s
    WHERE a.status = 'ok' AND NOT a.warmup AND a.join_status IN ('matched', 'heuristic')
      AND a.network_ms IS NOT NULL AND (s.only_run IS NULL OR a.run_id = s.only_run)
),
runs AS (
    SELECT run_id, median(network_ms) AS run_network_p50_ms, mad(network_ms) AS run_network_mad_ms
    FROM paired
    GROUP BY run_id
),
scored AS (
    SELECT p.*, r.run_network_p50_ms, r.run_network_mad_ms,
           (p.network_ms - r.run_network_p50_ms) / nullif(1.4826 * r.run_network_mad_ms, 0)
               AS robust_z,
           CASE WHEN p.suspect THEN 'suspect'
                WHEN p.network_ms - r.run_network_p50_ms >= s.min_ms
                     AND coalesce((p.network_ms - r.run_network_p50_ms)
                                  / nullif(1.4826 * r.run_network_mad_ms, 0) > s.z, true)
                THEN 'slow' END AS kind
    FROM paired p
    JOIN runs r ON r.run_id = p.run_id
    CROSS JOIN settings s
)
SELECT kind, request_key, run_id, instance, aligned_start_ts, client_ttft_ms, client_e2e_ms,
       network_ms, network_ttft_ms, run_network_p50_ms, run_network_mad_ms, robust_z,
       clock_offset_ms, suspect_reason
FROM scored
WHERE kind IS NOT NULL
ORDER BY CASE kind WHEN 'slow' THEN 1 ELSE 2 END, run_id, network_ms DESC, request_key
