-- report/notice_counts: how many errors, OOMs, preemptions and warnings did each server log, and what did the first say?
-- params:  none
-- returns: engine, instance, kind, notices, first_ts, last_ts, first_message
--
-- server_notice rows per instance and kind, startup and config excluded (those describe the
-- environment, see report/environment_facts); first_message is the earliest one's text.
SELECT engine, instance, kind, count(*) AS notices, min(ts) AS first_ts, max(ts) AS last_ts,
       arg_min(message, coalesce(ts, TIMESTAMP '1970-01-01')) AS first_message
FROM server_notice
WHERE kind NOT IN ('startup', 'config')
GROUP BY engine, instance, kind
ORDER BY engine, instance, CASE kind WHEN 'oom' THEN 1 WHEN 'error' THEN 2 WHEN 'preemption' THEN 3
                                     ELSE 4 END, kind
