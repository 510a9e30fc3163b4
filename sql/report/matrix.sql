-- report/matrix: how do TTFT, ITL and TPOT, requests/s and output tokens/s change across the cells of a loadgen --matrix sweep?
-- params:  none
-- returns: run_id, cell, prompt_tokens, max_tokens, concurrency, requests, ttft_p50_ms,
--          ttft_p95_ms, itl_p50_ms, itl_p95_ms, tpot_p50_ms, tpot_p95_ms, window_s, requests_per_s,
--          output_tokens_per_s
--
-- One row per run and cell (client_timing.cell, docs/formats/client-files.md#matrix-columns),
-- client requests with status ok, not warm-up, in the order the sweep ran them. The method's terms
-- (docs/design.md#method): TTFT = the client's time to the first token (from issue; a sweep cell
-- runs closed-loop, so no client queue); ITL = the client's mean gap between tokens, (e2e − ttft)
-- / (output tokens − 1) (MLT); TPOT = the server's decode / (output tokens − 1), from the matched
-- server record (NULL when none). Percentiles: quantile_cont. window_s = the cell's first start to
-- its last end on the client's clock; requests_per_s and output_tokens_per_s over that window,
-- kept apart (never one as the other).
WITH cells AS (
    SELECT c.run_id, c.cell, c.request_key, c.prompt_tokens, c.max_tokens, c.concurrency,
           c.ttft_ms, c.e2e_ms, c.output_tokens, epoch(c.start_ts) AS start_s,
           epoch(c.start_ts) + c.e2e_ms / 1000.0 AS end_s, c.source_line
    FROM client_timing c
    WHERE c.cell IS NOT NULL AND c.status = 'ok' AND NOT c.warmup AND c.start_ts IS NOT NULL
),
server AS (
    -- only the keys of sweep cells (the whole groups: any_value picks among the same rows); no
    -- request is grouped when the database holds no sweep
    SELECT a.run_id, a.request_key, any_value(a.tpot_ms) AS tpot_ms
    FROM request_attribution a
    SEMI JOIN cells k ON k.run_id = a.run_id AND k.request_key = a.request_key
    WHERE a.tpot_ms IS NOT NULL
    GROUP BY a.run_id, a.request_key
)
SELECT c.run_id, c.cell, any_value(c.prompt_tokens) AS prompt_tokens,
       any_value(c.max_tokens) AS max_tokens, any_value(c.concurrency) AS concurrency,
       count(*) AS requests,
       quantile_cont(c.ttft_ms, 0.5) AS ttft_p50_ms,
       quantile_cont(c.ttft_ms, 0.95) AS ttft_p95_ms,
       quantile_cont((c.e2e_ms - c.ttft_ms) / (c.output_tokens - 1), 0.5)
           FILTER (WHERE c.output_tokens > 1) AS itl_p50_ms,
       quantile_cont((c.e2e_ms - c.ttft_ms) / (c.output_tokens - 1), 0.95)
           FILTER (WHERE c.output_tokens > 1) AS itl_p95_ms,
       quantile_cont(s.tpot_ms, 0.5) AS tpot_p50_ms,
       quantile_cont(s.tpot_ms, 0.95) AS tpot_p95_ms,
       max(c.end_s) - min(c.start_s) AS window_s,
       count(*) / nullif(max(c.end_s) - min(c.start_s), 0) AS requests_per_s,
       sum(c.output_tokens) / nullif(max(c.end_s) - min(c.start_s), 0) AS output_tokens_per_s
FROM cells c
LEFT JOIN server s ON s.run_id = c.run_id AND s.request_key = c.request_key
GROUP BY c.run_id, c.cell
ORDER BY c.run_id, min(c.source_line), c.cell
