-- report/request_rows: every client request with its latency components, for the report's request table.
-- params:  :limit (INTEGER, default 5000)
-- returns: run_id, request_key, concurrency, instance, status, join_status, included, exclusion,
--          dominant, start_ts, client_ttft_ms, client_e2e_ms, mlt_ms, tpot_ms, client_queue_ms,
--          network_ms, queue_ms, prefill_ms, decode_ms, prompt_tokens, output_tokens
--
-- One row per client request of request_attribution (run the attribution first), attributed or not
-- (exclusion says why not), slowest client_e2e_ms first, at most :limit rows. start_ts: on the
-- server clock when a clock offset is known (aligned_start_ts), else as the client logged it.
SELECT run_id, request_key, concurrency, instance, status, join_status, included, exclusion,
       dominant, coalesce(aligned_start_ts, start_ts) AS start_ts, client_ttft_ms, client_e2e_ms,
       mlt_ms, tpot_ms, client_queue_ms, network_ms, queue_ms, prefill_ms, decode_ms, prompt_tokens,
       output_tokens
FROM request_attribution
ORDER BY client_e2e_ms DESC NULLS LAST, run_id, request_key, client_source_path, client_source_line
LIMIT coalesce(CAST(:limit AS BIGINT), 5000)
