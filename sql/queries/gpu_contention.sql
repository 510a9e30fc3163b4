-- queries/gpu_contention: which requests ran while another process held the engine's GPU, and how much slower were they?
-- params:  :run_id (VARCHAR, default every run), :gap_s (DOUBLE, default 5: a co-tenant unseen
--          for longer has left the GPU)
-- returns: request_key, run_id, instance, gpu, co_tenant_pid, co_tenant_name, request_start_ts,
--          request_end_ts, tpot_ms, clear_tpot_p50_ms, slowdown, decode_ms, client_e2e_ms
--
-- GPU processes come from gpu_process (nvidia-smi --query-compute-apps, pmon;
-- docs/formats/gpu.md#gpu_process), stamped with the engine instance the GPU serves. On each
-- instance's GPU (UUID; pmon's index is read as the UUID gpu_sample gives that index, else kept)
-- the engine is the process seen in the most samples (then the most memory); every other process
-- is a co-tenant, holding the GPU from its first sample to its last, a gap of more than :gap_s
-- seconds splitting that into spells. A process first seen at a sample arrived somewhere since
-- the sample before: each spell is widened by half the GPU's median sampling interval on both
-- sides, the unbiased guess. A paired request (status ok, not warm-up) of the same instance is hit
-- when its time on the server clock (aligned_start_ts to
-- + client_e2e_ms) overlaps a spell. slowdown = its TPOT / the median TPOT of the instance's
-- requests that no spell touched (NULL without such requests). One row per hit request and
-- co-tenant, slowest first.
WITH settings AS (
    SELECT CAST(:run_id AS VARCHAR) AS only_run,
           to_microseconds(CAST(round(coalesce(CAST(:gap_s AS DOUBLE), 5.0) * 1000000) AS BIGINT))
               AS gap
),
uuids AS (
    SELECT instance, gpu_index, any_value(gpu_uuid) AS gpu_uuid
    FROM gpu_sample
    WHERE gpu_index IS NOT NULL AND gpu_uuid IS NOT NULL
    GROUP BY instance, gpu_index
),
procs AS (
    SELECT p.instance, coalesce(p.gpu_uuid, u.gpu_uuid, CAST(p.gpu_index AS VARCHAR)) AS gpu, p.pid,
           p.process_name, p.used_mem_mib, p.ts
    FROM gpu_process p
    LEFT JOIN uuids u ON u.instance = p.instance AND u.gpu_index = p.gpu_index
    WHERE p.ts IS NOT NULL AND coalesce(p.gpu_uuid, CAST(p.gpu_index AS VARCHAR)) IS NOT NULL
),
per_pid AS (
    SELECT instance, gpu, pid, count(*) AS samples, max(coalesce(used_mem_mib, 0)) AS mem
    FROM procs
    GROUP BY instance, gpu, pid
),
engine_pid AS (
    SELECT instance, gpu, arg_max(pid, samples * 1e12 + mem) AS pid
    FROM per_pid
    GROUP BY instance, gpu
),
sampling AS (
    SELECT instance, gpu, quantile_cont(gap_us, 0.5) AS interval_us
    FROM (SELECT instance, gpu,
                 epoch_us(ts) - lag(epoch_us(ts)) OVER (PARTITION BY instance, gpu ORDER BY ts)
                     AS gap_us
          FROM (SELECT DISTINCT instance, gpu, ts FROM procs))
    WHERE gap_us IS NOT NULL
    GROUP BY instance, gpu
),
foreign_samples AS (
    SELECT p.instance, p.gpu, p.pid, p.process_name, p.ts,
           CASE WHEN lag(p.ts) OVER w IS NULL OR p.ts - lag(p.ts) OVER w > s.gap THEN 1 ELSE 0 END
               AS starts
    FROM procs p
    JOIN engine_pid e ON e.instance = p.instance AND e.gpu = p.gpu AND e.pid <> p.pid
    CROSS JOIN settings s
    WINDOW w AS (PARTITION BY p.instance, p.gpu, p.pid ORDER BY p.ts)
),
numbered AS (
    SELECT *, sum(starts) OVER (PARTITION BY instance, gpu, pid ORDER BY ts) AS spell
    FROM foreign_samples
),
raw_spells AS (
    SELECT instance, gpu, pid, any_value(process_name) AS process_name, min(ts) AS from_ts,
           max(ts) AS to_ts
    FROM numbered
    GROUP BY instance, gpu, pid, spell
),
spells AS (
    SELECT r.instance, r.gpu, r.pid, r.process_name,
           r.from_ts - to_microseconds(CAST(coalesce(m.interval_us, 0) / 2 AS BIGINT)) AS from_ts,
           r.to_ts + to_microseconds(CAST(coalesce(m.interval_us, 0) / 2 AS BIGINT)) AS to_ts
    FROM raw_spells r
    LEFT JOIN sampling m ON m.instance = r.instance AND m.gpu = r.gpu
),
requests AS (
    SELECT a.request_key, a.run_id, a.instance, a.tpot_ms, a.decode_ms, a.client_e2e_ms,
           a.aligned_start_ts AS start_ts,
           a.aligned_start_ts + to_microseconds(CAST(round(a.client_e2e_ms * 1000) AS BIGINT))
               AS end_ts
    FROM request_attribution a
    CROSS JOIN settings s
    WHERE a.status = 'ok' AND NOT a.warmup AND a.join_status IN ('matched', 'heuristic')
      AND a.aligned_start_ts IS NOT NULL AND a.client_e2e_ms IS NOT NULL
      AND (s.only_run IS NULL OR a.run_id = s.only_run)
      -- only the instances with a co-tenant spell, every row below is on one (all requests were
      -- read and kept before: 1.9 s of a 1 M report without any GPU sample)
      AND a.instance IN (SELECT instance FROM spells)
),
hits AS (
    SELECT r.*, sp.gpu, sp.pid AS co_tenant_pid, sp.process_name AS co_tenant_name
    FROM requests r
    JOIN spells sp ON sp.instance = r.instance AND r.start_ts <= sp.to_ts
                  AND r.end_ts >= sp.from_ts
),
clear AS (
    -- only on the instances with a hit (the rows below)
    SELECT r.instance, quantile_cont(r.tpot_ms, 0.5) AS tpot_p50
    FROM requests r
    WHERE r.instance IN (SELECT instance FROM hits)
      AND NOT EXISTS (SELECT 1 FROM hits h WHERE h.request_key = r.request_key
                                             AND h.run_id = r.run_id)
    GROUP BY r.instance
)
SELECT h.request_key, h.run_id, h.instance, h.gpu, h.co_tenant_pid, h.co_tenant_name,
       h.start_ts AS request_start_ts, h.end_ts AS request_end_ts, h.tpot_ms,
       c.tpot_p50 AS clear_tpot_p50_ms,
       CASE WHEN c.tpot_p50 > 0 THEN h.tpot_ms / c.tpot_p50 END AS slowdown,
       h.decode_ms, h.client_e2e_ms
FROM hits h
LEFT JOIN clear c ON c.instance = h.instance
ORDER BY slowdown DESC NULLS LAST, h.client_e2e_ms DESC NULLS LAST, h.request_key, h.co_tenant_pid;
