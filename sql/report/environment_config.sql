-- report/environment_config: what does each instance's startup output say about its configuration, setting by setting?
-- params:  none
-- returns: engine, instance, section, key, value, source_path, source_line, last_ts, occurrences,
--          distinct_values
--
-- One row per instance, section and key of server_config: the value of its last occurrence (the
-- latest start), where it was printed, how often, and how many distinct values it had (above 1:
-- the server restarted with other settings; queries/server_config shows when). Values are
-- compared without a leading 'torch.'. The report maps these keys to its environment settings
-- (engine version, model, precision, parallelism, limits, ...), preferring a resolved section over
-- the launch arguments (section args).
WITH ordered AS (
    SELECT *,
           row_number() OVER (PARTITION BY engine, instance, section, key
                              ORDER BY ts NULLS FIRST, source_path, source_line) AS seq
    FROM server_config
)
SELECT engine, instance, section, key,
       arg_max(value, seq) AS value,
       arg_max(source_path, seq) AS source_path,
       arg_max(source_line, seq) AS source_line,
       max(ts) AS last_ts,
       count(*) AS occurrences,
       count(DISTINCT regexp_replace(value, '^torch\.', '')) AS distinct_values
FROM ordered
GROUP BY engine, instance, section, key
ORDER BY engine, instance, section, key
