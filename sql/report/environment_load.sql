-- report/environment_load: what load did each client run put on the servers: prompt and output lengths, concurrency?
-- params:  none
-- returns: run_id, requests, prompt_token_rows, prompt_p10, prompt_p50, prompt_p90, prompt_max,
--          output_token_rows, output_p10, output_p50, output_p90, output_max, concurrency_min,
--          concurrency_max, concurrency_rows, request_rate
--
-- From the client's own records (client_timing), warm-up requests excluded, failed ones included
-- (they were load too). Token lengths as the client recorded them (prompt_tokens, output_tokens);
-- *_rows count the requests that have the value, so a client format without it shows 0 rows and
-- NULL percentiles. Percentiles are exact (quantile_cont). request_rate (requests/s) is the rate a
-- tool's aggregate file recorded for the run (`clients DIR`, kept in runs.params; NULL otherwise;
-- docs/formats/client-files.md#output-folders).
WITH per_run AS (
    -- one list quantile per column: each scalar quantile_cont kept its own copy of every value
    SELECT run_id,
           count(*) AS requests,
           count(prompt_tokens) AS prompt_token_rows,
           quantile_cont(prompt_tokens, [0.1, 0.5, 0.9]) AS prompt_q,
           max(prompt_tokens) AS prompt_max,
           count(output_tokens) AS output_token_rows,
           quantile_cont(output_tokens, [0.1, 0.5, 0.9]) AS output_q,
           max(output_tokens) AS output_max,
           min(concurrency) AS concurrency_min,
           max(concurrency) AS concurrency_max,
           count(concurrency) AS concurrency_rows,
           any_value(TRY_CAST(json_extract_string(r.params, '$.request_rate') AS DOUBLE))
               AS request_rate
    FROM client_timing
    LEFT JOIN runs r USING (run_id)
    WHERE NOT warmup
    GROUP BY run_id
)
SELECT run_id, requests, prompt_token_rows, prompt_q[1] AS prompt_p10, prompt_q[2] AS prompt_p50,
       prompt_q[3] AS prompt_p90, prompt_max, output_token_rows, output_q[1] AS output_p10,
       output_q[2] AS output_p50, output_q[3] AS output_p90, output_max, concurrency_min,
       concurrency_max, concurrency_rows, request_rate
FROM per_run
ORDER BY run_id
