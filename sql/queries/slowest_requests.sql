-- queries/slowest_requests: which requests were slowest end to end, and where did their time go?
-- params:  :limit (INTEGER, default 10)
-- returns: request_key, run_id, concurrency, engine, instance, client_ttft_ms, client_e2e_ms,
--          client_queue_ms, network_ms, queue_ms, prefill_ms, decode_ms, dominant, output_tokens,
--          join_status, included, exclusion
--
-- Population: client requests with status ok that are not warm-up, attributed or not, slowest
-- client_e2e_ms first. Reads request_attribution: run the attribution first.
SELECT request_key, run_id, concurrency, engine, instance, client_ttft_ms, client_e2e_ms,
       client_queue_ms, network_ms, queue_ms, prefill_ms, decode_ms, dominant, output_tokens,
       join_status, included, exclusion
FROM request_attribution
WHERE status = 'ok' AND NOT warmup
ORDER BY client_e2e_ms DESC NULLS LAST, request_key
LIMIT coalesce(CAST(:limit AS BIGINT), 10)
