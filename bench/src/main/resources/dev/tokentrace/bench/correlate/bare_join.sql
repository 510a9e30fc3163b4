-- bench/bare_join: the lower bound for correlate + core metrics: a plain join of the client and
-- server tables by request_key, *materialised* into a table with the same 60 columns (names and
-- types) as request_attribution, so that the baseline pays for writing its rows as correlate does
-- (issue [2.8] target 2), and then the same percentiles (P50/P90/P95/P99, mean) of FTL, MLT, TPOT
-- and e2e, overall and per concurrency level (attribution/core_metrics), plus those of the network,
-- queue, prefill and decode components. No retry, duplicate, clock, warm-up or suspect rules: the
-- columns those rules decide are written as constants. The INSERT names its 60 columns: columns
-- added to request_attribution since (the P/D ones, sql/schema/012_pd.sql) stay NULL, as on a
-- single-server row.
-- Statements separated by ";\n". The first two replace the table bare_attribution (committed; the
-- benchmark's database keeps it); the percentiles are then computed the way the report computes
-- them: one grouping per statement and one list quantile_cont per metric, four metrics per
-- statement, since exact quantiles keep every value in memory (8 metrics x 10 M values x 2
-- groupings = 1.3 GB in one statement outgrew the 1 GB memory_limit). {grouping} is replaced by
-- NULL (all) or concurrency, {metrics} by the four.
CREATE OR REPLACE TABLE bare_attribution AS
    SELECT * FROM request_attribution LIMIT 0;
INSERT INTO bare_attribution (run_id, client_format, client_source_path, client_source_line,
        request_id, request_key, start_ts, concurrency, status, warmup, join_status, confidence,
        client_rows, server_rows, arrival_rows, engine, instance, server_source, server_request_id,
        server_source_path, server_source_line, server_arrival_ts, prompt_tokens, output_tokens,
        server_output_tokens, token_mismatch, client_ttft_ms, client_e2e_ms, client_queue_ms,
        client_queue_recorded, network_ttft_ms, network_ms, queue_ms, prefill_ms, decode_ms,
        server_derived, server_ttft_ms, server_e2e_ms, mlt_ms, tpot_ms, dominant, suspect,
        suspect_reason, included, exclusion, id_kind, match_method, match_cost, match_candidates,
        duplicate_reason, clock_offset_ms, aligned_start_ts, retried, attempt_rule, vantage,
        timing_view, gateway_rows, gateway_e2e_ms, network_client_gateway_ms,
        network_gateway_engine_ms)
    SELECT c.run_id, c.client_format, c.source_path, c.source_line, c.request_id, c.request_key,
           c.start_ts, c.concurrency, c.status, c.warmup, 'matched', 'high', 1, 1, 0,
           t.engine, t.instance, t.source_kind, t.request_id, t.source_path, t.source_line,
           t.arrival_ts, c.prompt_tokens, c.output_tokens, t.output_tokens,
           t.output_tokens <> c.output_tokens,
           c.ttft_ms, c.e2e_ms, coalesce(c.client_queue_ms, 0), c.client_queue_ms IS NOT NULL,
           c.ttft_ms - coalesce(c.client_queue_ms, 0) - (t.queue_ms + t.prefill_ms),
           c.e2e_ms - coalesce(c.client_queue_ms, 0) - (t.queue_ms + t.prefill_ms + t.decode_ms),
           t.queue_ms, t.prefill_ms, t.decode_ms, false, t.server_ttft_ms, t.e2e_ms,
           CASE WHEN c.output_tokens > 1
                THEN (c.e2e_ms - c.ttft_ms) / (c.output_tokens - 1) END,
           CASE WHEN t.output_tokens > 1 THEN t.decode_ms / (t.output_tokens - 1) END,
           'decode', false, NULL, c.status = 'ok' AND NOT c.warmup, NULL, c.id_kind, 'id', NULL,
           NULL, NULL, 0.0, c.start_ts, false, NULL, 'client', 'ttft', 0, NULL, NULL, NULL
    FROM client_timing c
    JOIN request_timing t ON t.request_key = c.request_key;
SELECT {grouping} AS concurrency,
       {metrics}
FROM (SELECT concurrency, client_ttft_ms AS ftl, mlt_ms AS mlt, tpot_ms AS tpot,
             client_e2e_ms AS e2e, network_ms AS network, queue_ms AS queue,
             prefill_ms AS prefill, decode_ms AS decode
      FROM bare_attribution WHERE included)
GROUP BY ALL
ORDER BY concurrency NULLS FIRST
