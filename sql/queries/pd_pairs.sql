-- queries/pd_pairs: with prefill/decode disaggregation, how long did the KV transfer take between each prefill and decode server, and how many transfers failed or expired?
-- params:  none
-- returns: prefill_instance, decode_instance, requests (attributed P/D requests of the pair),
--          kv_p50_ms, kv_p95_ms (their kv_transfer_ms), decode_queue_p50_ms, estimated (how many of
--          their transfers are interval estimates, docs/formats/pd.md#estimate), failed_transfers,
--          expired_transfers (the interval rows of both servers of the pair: vLLM's decode server,
--          every prefill server together, since its lines do not name the peer; SGLang's prefill
--          server from its metrics, every decode server together; docs/formats/pd.md#named-query)
--
-- One row per pair of servers that served a request together (request_attribution: instance is
-- the prefill server, decode_instance the decode server; docs/formats/pd.md#attribution). Empty for
-- a single-server run. Percentiles are quantile_cont (docs/design.md#percentiles).
WITH pairs AS (
    SELECT instance AS prefill_instance, decode_instance, count(*) AS requests,
           quantile_cont(kv_transfer_ms, 0.5) AS kv_p50_ms,
           quantile_cont(kv_transfer_ms, 0.95) AS kv_p95_ms,
           quantile_cont(decode_queue_ms, 0.5) AS decode_queue_p50_ms,
           count(*) FILTER (WHERE kv_transfer_source = 'interval_estimate') AS estimated
    FROM request_attribution
    WHERE decode_instance IS NOT NULL AND included
    GROUP BY instance, decode_instance
),
failures AS (
    SELECT instance, sum(failed) AS failed_transfers, sum(expired) AS expired_transfers
    FROM kv_transfer
    WHERE request_key IS NULL
    GROUP BY instance
)
SELECT p.prefill_instance, p.decode_instance, p.requests, p.kv_p50_ms, p.kv_p95_ms,
       p.decode_queue_p50_ms, p.estimated,
       coalesce(f.failed_transfers, 0) + coalesce(fp.failed_transfers, 0) AS failed_transfers,
       coalesce(f.expired_transfers, 0) + coalesce(fp.expired_transfers, 0) AS expired_transfers
FROM pairs p
LEFT JOIN failures f ON f.instance = p.decode_instance
LEFT JOIN failures fp ON fp.instance = p.prefill_instance AND fp.instance <> p.decode_instance
ORDER BY p.prefill_instance, p.decode_instance
