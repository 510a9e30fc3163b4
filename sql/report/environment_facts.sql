-- report/environment_facts: what did each server say about itself at startup (versions, KV cache size, launch options)?
-- params:  none
-- returns: engine, instance, kind, message, first_ts, times
--
-- The distinct messages of startup and config notices per instance (model, KV cache and memory
-- figures, chunked prefill, maximum concurrency, versions), in order of first appearance.
SELECT engine, instance, kind, message, min(ts) AS first_ts, count(*) AS times
FROM server_notice
WHERE kind IN ('startup', 'config')
GROUP BY engine, instance, kind, message
ORDER BY engine, instance, min(ts) NULLS LAST, min(source_line), message
