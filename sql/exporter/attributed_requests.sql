-- exporter/attributed_requests: the attributed requests `tokentrace serve` turns into histogram observations, in seconds.
-- params:  none
-- returns: run_id, client_source_path, client_source_line, instance, network_s, client_queue_s,
--          server_queue_s, prefill_s, decode_s, kv_transfer_s, decode_queue_s, ttft_s, itl_s, e2e_s
--
-- Prefill/decode disaggregation (docs/formats/pd.md#attribution): instance names the pair,
-- '<prefill instance>/<decode instance>', and kv_transfer_s and decode_queue_s are observed; both
-- are NULL (not observed) for a single-server request, whose instance is unchanged.
--
-- Population: the included requests of request_attribution, the same rows whose percentiles
-- queries/attribution_summary reports (matched, status ok, not warm-up, not suspect), so a
-- histogram_quantile over the exporter's buckets estimates the same P95 (docs/live.md#metrics).
-- A request is known by (run_id, client_source_path, client_source_line): the exporter observes
-- each such key once (docs/live.md#one-observation-per-request). itl_s is the request's mean
-- inter-token latency as the client saw it (MLT = time after the first token / tokens after the
-- first), NULL for a request of one output token. A NULL component is not observed.
SELECT run_id, client_source_path, client_source_line,
       CASE WHEN decode_instance IS NULL THEN coalesce(instance, 'unknown')
            ELSE coalesce(instance, 'unknown') || '/' || decode_instance END AS instance,
       network_ms / 1000.0 AS network_s,
       client_queue_ms / 1000.0 AS client_queue_s,
       queue_ms / 1000.0 AS server_queue_s,
       prefill_ms / 1000.0 AS prefill_s,
       decode_ms / 1000.0 AS decode_s,
       kv_transfer_ms / 1000.0 AS kv_transfer_s,
       decode_queue_ms / 1000.0 AS decode_queue_s,
       client_ttft_ms / 1000.0 AS ttft_s,
       mlt_ms / 1000.0 AS itl_s,
       client_e2e_ms / 1000.0 AS e2e_s
FROM request_attribution
WHERE included
ORDER BY run_id, client_source_path, client_source_line
