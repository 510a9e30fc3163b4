-- report/gpu_processes: which processes ran on each instance's GPUs, and which of them is the engine?
-- params:  (none)
-- returns: instance, gpu, pid, process_name, is_engine, samples, first_ts, last_ts, max_mem_mib,
--          max_sm_pct
--
-- gpu_process rows (nvidia-smi --query-compute-apps, pmon; docs/formats/gpu.md#gpu_process), per
-- instance, GPU (UUID; pmon's index as the UUID gpu_sample gives it, else the index) and pid. The engine is, as in queries/gpu_contention, the
-- process seen in the most samples on the GPU (then the most memory); every other process is a
-- co-tenant. Co-tenants first, then by instance, GPU and first sample.
WITH uuids AS (
    SELECT instance, gpu_index, any_value(gpu_uuid) AS gpu_uuid
    FROM gpu_sample
    WHERE gpu_index IS NOT NULL AND gpu_uuid IS NOT NULL
    GROUP BY instance, gpu_index
),
procs AS (
    SELECT p.instance, coalesce(p.gpu_uuid, u.gpu_uuid, CAST(p.gpu_index AS VARCHAR)) AS gpu, p.pid,
           p.process_name, p.used_mem_mib, p.sm_pct, p.ts
    FROM gpu_process p
    LEFT JOIN uuids u ON u.instance = p.instance AND u.gpu_index = p.gpu_index
    WHERE coalesce(p.gpu_uuid, CAST(p.gpu_index AS VARCHAR)) IS NOT NULL
),
per_pid AS (
    SELECT instance, gpu, pid, any_value(process_name ORDER BY ts) AS process_name,
           count(*) AS samples, min(ts) AS first_ts, max(ts) AS last_ts,
           max(used_mem_mib) AS max_mem_mib, max(sm_pct) AS max_sm_pct
    FROM procs
    GROUP BY instance, gpu, pid
),
engine_pid AS (
    SELECT instance, gpu, arg_max(pid, samples * 1e12 + coalesce(max_mem_mib, 0)) AS pid
    FROM per_pid
    GROUP BY instance, gpu
)
SELECT p.instance, p.gpu, p.pid, p.process_name, p.pid = e.pid AS is_engine, p.samples,
       p.first_ts, p.last_ts, p.max_mem_mib, p.max_sm_pct
FROM per_pid p
JOIN engine_pid e ON e.instance = p.instance AND e.gpu = p.gpu
ORDER BY is_engine, p.instance, p.gpu, p.first_ts NULLS LAST, p.pid
