-- report/gpu_timeline: how did each instance's GPUs' utilisation, memory and power move over time?
-- params:  :buckets (INTEGER, default 120)
-- returns: instance, tool, bucket, bucket_start_ts, bucket_end_ts, samples, gpus, util_mean_pct,
--          util_max_pct, mem_used_mib, mem_total_mib, power_w
--
-- gpu_sample rows (docs/formats/gpu.md#gpu_sample) of one tool per instance: the one with the most
-- samples, query-gpu before dcgm before dmon on a tie (several tools of one GPU would count it
-- twice). Per instance, from its first sample to its last, cut into :buckets equal slices; per
-- slice the mean and largest utilisation over its GPUs, and the largest memory used, total memory
-- and power of all its GPUs at one time (summed per timestamp, then the slice's largest). Slices
-- without a sample are left out.
WITH tools AS (
    SELECT instance, tool, count(*) AS samples
    FROM gpu_sample
    WHERE ts IS NOT NULL
    GROUP BY instance, tool
),
chosen_tool AS (
    SELECT instance,
           arg_max(tool, samples * 10 + CASE tool WHEN 'query-gpu' THEN 3 WHEN 'dcgm' THEN 2 ELSE 1 END)
               AS tool
    FROM tools
    GROUP BY instance
),
per_time AS (
    SELECT g.instance, g.tool, g.ts, count(*) AS gpus, avg(g.util_gpu_pct) AS util_mean,
           max(g.util_gpu_pct) AS util_max, sum(g.mem_used_mib) AS mem_used,
           sum(g.mem_total_mib) AS mem_total, sum(g.power_w) AS power
    FROM gpu_sample g
    JOIN chosen_tool c ON c.instance = g.instance AND c.tool = g.tool
    WHERE g.ts IS NOT NULL
    GROUP BY g.instance, g.tool, g.ts
),
spans AS (
    SELECT instance, min(ts) AS first_ts,
           greatest(epoch_us(max(ts)) - epoch_us(min(ts)), 1) AS span_us,
           coalesce(CAST(:buckets AS INTEGER), 120) AS buckets
    FROM per_time
    GROUP BY instance
),
placed AS (
    SELECT p.*, s.first_ts, s.span_us, s.buckets,
           least(CAST(floor((epoch_us(p.ts) - epoch_us(s.first_ts)) * s.buckets / s.span_us) AS BIGINT),
                 s.buckets - 1) AS bucket
    FROM per_time p
    JOIN spans s ON s.instance = p.instance
)
SELECT instance, any_value(tool) AS tool, bucket,
       make_timestamp(epoch_us(min(first_ts)) + CAST(bucket * min(span_us) / min(buckets) AS BIGINT))
           AS bucket_start_ts,
       make_timestamp(epoch_us(min(first_ts))
                      + CAST((bucket + 1) * min(span_us) / min(buckets) AS BIGINT)) AS bucket_end_ts,
       count(*) AS samples,
       max(gpus) AS gpus,
       avg(util_mean) AS util_mean_pct,
       max(util_max) AS util_max_pct,
       max(mem_used) AS mem_used_mib,
       max(mem_total) AS mem_total_mib,
       avg(power) AS power_w
FROM placed
GROUP BY instance, bucket
ORDER BY instance, bucket
