-- report/pd_components: with prefill/decode disaggregation, how long did the KV transfer and the decode-side queueing take?
-- params:  none
-- returns: component (kv_transfer | decode_queue), requests, p50_ms, p90_ms, p95_ms, p99_ms,
--          mean_ms, share, dominant_requests, estimated
--
-- The two components only P/D requests have (docs/formats/pd.md#attribution), over the included
-- requests of request_attribution (as queries/attribution_summary's 'all' grouping): requests =
-- included P/D requests; share = the component's sum / the sum of client_e2e_ms over every
-- included request (the denominator of attribution_summary's shares, so the shares of both files
-- add up to 1); dominant_requests = requests whose largest component it is; estimated = how many
-- of the transfers are interval estimates (kv_transfer_source 'interval_estimate',
-- docs/formats/pd.md#estimate). No rows for a single-server run (decode_instance is NULL there).
-- Percentiles are quantile_cont (docs/design.md#percentiles).
WITH included AS (
    SELECT decode_instance, kv_transfer_ms, decode_queue_ms, kv_transfer_source, dominant,
           client_e2e_ms
    FROM request_attribution
    WHERE included
),
totals AS (
    SELECT sum(client_e2e_ms) AS e2e_sum,
           count(*) FILTER (WHERE decode_instance IS NOT NULL) AS pd_requests,
           count(*) FILTER (WHERE kv_transfer_source = 'interval_estimate') AS estimated
    FROM included
),
wide AS (
    SELECT count(kv_transfer_ms) AS kv_n, avg(kv_transfer_ms) AS kv_mean,
           sum(kv_transfer_ms) AS kv_sum,
           count(*) FILTER (WHERE dominant = 'kv_transfer') AS kv_dom,
           quantile_cont(kv_transfer_ms, [0.50, 0.90, 0.95, 0.99]) AS kv_q,
           count(decode_queue_ms) AS dq_n, avg(decode_queue_ms) AS dq_mean,
           sum(decode_queue_ms) AS dq_sum,
           count(*) FILTER (WHERE dominant = 'decode_queue') AS dq_dom,
           quantile_cont(decode_queue_ms, [0.50, 0.90, 0.95, 0.99]) AS dq_q
    FROM included
    WHERE decode_instance IS NOT NULL
),
components(ord, component) AS (
    VALUES (1, 'kv_transfer'), (2, 'decode_queue')
)
SELECT c.component,
       CASE c.component WHEN 'kv_transfer' THEN kv_n ELSE dq_n END AS requests,
       (CASE c.component WHEN 'kv_transfer' THEN kv_q ELSE dq_q END)[1] AS p50_ms,
       (CASE c.component WHEN 'kv_transfer' THEN kv_q ELSE dq_q END)[2] AS p90_ms,
       (CASE c.component WHEN 'kv_transfer' THEN kv_q ELSE dq_q END)[3] AS p95_ms,
       (CASE c.component WHEN 'kv_transfer' THEN kv_q ELSE dq_q END)[4] AS p99_ms,
       CASE c.component WHEN 'kv_transfer' THEN kv_mean ELSE dq_mean END AS mean_ms,
       CASE c.component WHEN 'kv_transfer' THEN kv_sum ELSE dq_sum END / nullif(t.e2e_sum, 0)
           AS share,
       CASE c.component WHEN 'kv_transfer' THEN kv_dom ELSE dq_dom END AS dominant_requests,
       CASE c.component WHEN 'kv_transfer' THEN t.estimated ELSE 0 END AS estimated
FROM wide w
CROSS JOIN totals t
CROSS JOIN components c
WHERE t.pd_requests > 0
ORDER BY c.ord
