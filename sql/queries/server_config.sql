-- queries/server_config: which instances ran with which settings (version, model, precision, parallelism, limits), and when did they change?
-- params:  :instance (VARCHAR, default every instance), :changes_only (BOOLEAN, default false:
--          every setting; true: only values that differ from the instance's previous start)
-- returns: engine, instance, section, key, value, previous_value, changed, since_ts, source_path,
--          source_line, times
--
-- One row per setting and value as the server printed it at startup (server_config), in the
-- order the values appeared: a key keeps its row while the value stays the same (times counts the
-- lines that printed it); a new value starts a new row with previous_value and changed = true.
-- A restart with other flags in the middle of a log is such a change, and a finding: the runs
-- before and after it were not served under the same conditions. Keys are compared within their
-- section (args = launch arguments as given, possibly unresolved such as max_model_len=None;
-- engine_config, limits, kv_cache, ...: what the engine resolved), and values without a leading
-- 'torch.' (torch.bfloat16 = bfloat16). Secret values are stored as [redacted]. Key names per
-- engine: docs/formats/vllm.md, sglang.md and trtllm.md, "Startup configuration lines".
WITH facts AS (
    SELECT engine, instance, section, key, value, ts, source_path, source_line,
           regexp_replace(value, '^torch\.', '') AS norm
    FROM server_config
    WHERE CAST(:instance AS VARCHAR) IS NULL OR instance = CAST(:instance AS VARCHAR)
),
ordered AS (
    SELECT *,
           lag(norm) OVER w AS previous_norm,
           lag(value) OVER w AS previous_value,
           row_number() OVER w AS seq
    FROM facts
    WINDOW w AS (PARTITION BY engine, instance, section, key
                 ORDER BY ts NULLS FIRST, source_path, source_line)
),
starts AS (
    SELECT *, previous_norm IS NULL OR previous_norm <> norm AS starts_value
    FROM ordered
),
runs AS (
    SELECT *,
           sum(CASE WHEN starts_value THEN 1 ELSE 0 END)
               OVER (PARTITION BY engine, instance, section, key
                     ORDER BY ts NULLS FIRST, source_path, source_line) AS value_no
    FROM starts
)
SELECT engine, instance, section, key,
       arg_min(value, seq) AS value,
       max(previous_value) FILTER (WHERE starts_value) AS previous_value,
       coalesce(bool_or(starts_value AND previous_value IS NOT NULL), false) AS changed,
       min(ts) AS since_ts,
       arg_min(source_path, seq) AS source_path,
       arg_min(source_line, seq) AS source_line,
       count(*) AS times
FROM runs
GROUP BY engine, instance, section, key, value_no
HAVING NOT coalesce(CAST(:changes_only AS BOOLEAN), false)
    OR bool_or(starts_value AND previous_value IS NOT NULL)
ORDER BY engine, instance, since_ts NULLS FIRST, source_path, source_line, section, key
