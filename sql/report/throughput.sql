-- report/throughput: how much work did each run get done per second, in requests and in tokens?
-- params:  :run_id (VARCHAR, default every run)
-- returns: group_by, run_id, concurrency, requests, window_s, requests_per_s, output_tokens,
--          output_tokens_per_s, prompt_tokens, prompt_tokens_per_s
--
-- Per run (group_by 'run', concurrency NULL) and per run and concurrency level ('run_concurrency'):
-- client requests with status ok, not warm-up. window_s = from the first start to the last end
-- (client start + client_e2e_ms), on the client's own clock (wall, else monotonic); requests_per_s =
-- requests / window_s; output_tokens_per_s = the client's output tokens / window_s (system
-- throughput, the number that matters for capacity); prompt tokens: the client's, else the matched
-- server record's. Requests per second and tokens per second differ by the output length: never
-- report one as the other (the seed's pitfall). Runs that paused between levels count the pause in
-- the run's window: compare levels with the per-level rows.
WITH counted AS (
    SELECT a.*
    FROM request_attribution a
    WHERE a.status = 'ok' AND NOT a.warmup AND a.client_e2e_ms IS NOT NULL
      AND (CAST(:run_id AS VARCHAR) IS NULL OR a.run_id = CAST(:run_id AS VARCHAR))
),
population AS (
    -- the client's wall-clock start and the prompt tokens are in request_attribution for most
    -- requests; only the others are joined back to their client row (monotonic start) and server
    -- record (prompt tokens): two joins over every request took 96 s at 10 M on a loaded machine
    SELECT run_id, concurrency, output_tokens, prompt_tokens, epoch(start_ts) AS start_s,
           epoch(start_ts) + client_e2e_ms / 1000.0 AS end_s
    FROM counted
    WHERE start_ts IS NOT NULL AND prompt_tokens IS NOT NULL
    UNION ALL
    SELECT a.run_id, a.concurrency, a.output_tokens,
           coalesce(a.prompt_tokens, t.prompt_tokens) AS prompt_tokens,
           coalesce(epoch(a.start_ts), c.start_mono_s) AS start_s,
           coalesce(epoch(a.start_ts), c.start_mono_s) + a.client_e2e_ms / 1000.0 AS end_s
    FROM counted a
    JOIN client_timing c
      ON c.run_id = a.run_id AND c.source_path = a.client_source_path
     AND c.source_line = a.client_source_line
    LEFT JOIN request_timing t
           ON t.request_id = a.server_request_id AND t.source_path = a.server_source_path
          AND t.source_line = a.server_source_line AND t.instance = a.instance
    WHERE a.start_ts IS NULL OR a.prompt_tokens IS NULL
),
grouped AS (
    SELECT CASE WHEN grouping(concurrency) = 0 THEN 'run_concurrency' ELSE 'run' END AS group_by,
           run_id,
           CASE WHEN grouping(concurrency) = 0 THEN concurrency END AS concurrency,
           count(*) AS requests,
           max(end_s) - min(start_s) AS window_s,
           CAST(sum(output_tokens) AS BIGINT) AS output_tokens,
           CAST(sum(prompt_tokens) AS BIGINT) AS prompt_tokens,
           grouping(concurrency) AS grouping_rank
    FROM population
    WHERE start_s IS NOT NULL
    GROUP BY GROUPING SETS ((run_id), (run_id, concurrency))
)
SELECT group_by, run_id, concurrency, requests, window_s,
       requests / nullif(window_s, 0) AS requests_per_s, output_tokens,
       output_tokens / nullif(window_s, 0) AS output_tokens_per_s, prompt_tokens,
       prompt_tokens / nullif(window_s, 0) AS prompt_tokens_per_s
FROM grouped
ORDER BY run_id, grouping_rank DESC, concurrency NULLS FIRST
