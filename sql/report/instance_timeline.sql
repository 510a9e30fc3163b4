-- report/instance_timeline: how did each server's batch size, queue and KV cache use move over time?
-- params:  :buckets (INTEGER, default 120), :instance (VARCHAR, default every instance)
-- returns: engine, instance, bucket, bucket_start_ts, bucket_end_ts, samples, batch_max, batch_mean,
--          queue_max, kv_max_pct
--
-- Per instance, its snapshots (batch_step: batch_size and queued, KV = 100 * token_usage;
-- engine_stats: running and waiting, kv_usage_pct) from the first to the last, cut into :buckets
-- equal slices; per slice the largest batch (running) and queue (waiting) seen, the mean batch and
-- the largest KV cache use. Slices without a snapshot are left out (no invented zeros). For charts:
-- the size stays bounded whatever the number of steps (TensorRT-LLM logs every iteration).
WITH snapshots AS (
    SELECT engine, instance, ts, batch_size AS batch, queued AS queue, 100.0 * token_usage AS kv
    FROM batch_step
    WHERE ts IS NOT NULL AND (batch_size IS NOT NULL OR queued IS NOT NULL)
    UNION ALL
    SELECT engine, instance, ts, running, waiting, kv_usage_pct
    FROM engine_stats
    WHERE ts IS NOT NULL AND (running IS NOT NULL OR waiting IS NOT NULL)
),
chosen AS (
    SELECT * FROM snapshots
    WHERE CAST(:instance AS VARCHAR) IS NULL OR instance = CAST(:instance AS VARCHAR)
),
spans AS (
    SELECT engine, instance, min(ts) AS first_ts,
           greatest(epoch_us(max(ts)) - epoch_us(min(ts)), 1) AS span_us,
           coalesce(CAST(:buckets AS INTEGER), 120) AS buckets
    FROM chosen
    GROUP BY engine, instance
),
placed AS (
    SELECT c.*, s.first_ts, s.span_us, s.buckets,
           least(CAST(floor((epoch_us(c.ts) - epoch_us(s.first_ts)) * s.buckets / s.span_us) AS BIGINT),
                 s.buckets - 1) AS bucket
    FROM chosen c
    JOIN spans s ON s.engine = c.engine AND s.instance = c.instance
)
SELECT engine, instance, bucket,
       make_timestamp(epoch_us(min(first_ts)) + CAST(bucket * min(span_us) / min(buckets) AS BIGINT))
           AS bucket_start_ts,
       make_timestamp(epoch_us(min(first_ts))
                      + CAST((bucket + 1) * min(span_us) / min(buckets) AS BIGINT)) AS bucket_end_ts,
       count(*) AS samples,
       max(batch) AS batch_max,
       avg(batch) AS batch_mean,
       max(queue) AS queue_max,
       max(kv) AS kv_max_pct
FROM placed
GROUP BY engine, instance, bucket
ORDER BY engine, instance, bucket
