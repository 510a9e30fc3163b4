-- attribution/csv_rows: the rows of `tokentrace correlate --out attribution.csv`, one per client request, matched or not.
-- params:  none
-- returns: request_key, client_ttft_ms, client_e2e_ms, client_queue_ms, network_ms, queue_ms,
--          prefill_ms, decode_ms, dominant, network_ttft_ms, mlt_ms, tpot_ms, output_tokens,
--          server_output_tokens, run_id, request_id, concurrency, engine, instance, server_source,
--          join_status, confidence, warmup, status, suspect, suspect_reason, token_mismatch,
--          server_derived, included, exclusion, match_method, duplicate_reason, clock_offset_ms
--
-- Durations are rounded to 3 decimals (1 us) so the file is stable across floating-point noise;
-- request_attribution keeps full precision. Order: run, client file, client line.
SELECT request_key,
       round(client_ttft_ms, 3) AS client_ttft_ms,
       round(client_e2e_ms, 3) AS client_e2e_ms,
       round(client_queue_ms, 3) AS client_queue_ms,
       round(network_ms, 3) AS network_ms,
       round(queue_ms, 3) AS queue_ms,
       round(prefill_ms, 3) AS prefill_ms,
       round(decode_ms, 3) AS decode_ms,
       dominant,
       round(network_ttft_ms, 3) AS network_ttft_ms,
       round(mlt_ms, 3) AS mlt_ms,
       round(tpot_ms, 3) AS tpot_ms,
       output_tokens,
       server_output_tokens,
       run_id,
       request_id,
       concurrency,
       engine,
       instance,
       server_source,
       join_status,
       confidence,
       warmup,
       status,
       suspect,
       suspect_reason,
       token_mismatch,
       server_derived,
       included,
       exclusion,
       match_method,
       duplicate_reason,
       round(clock_offset_ms, 3) AS clock_offset_ms
FROM request_attribution
ORDER BY run_id, client_source_path, client_source_line
