-- schema/009_metrics: the server_histogram event table, version 5 of the schema (sql/schema/INDEX).
-- A database of version 4 gets it on its next open; nothing else changes.

-- server_histogram: what one of a server's own /metrics latency histograms gained between two
-- scrapes (docs/formats/metrics.md#server_histogram): component (queue, prefill, decode, ttft, itl,
-- tpot, e2e), the engine's metric name, the interval in seconds, the requests observed in it, their
-- summed time, P50/P90/P99 estimated from the buckets as Prometheus' histogram_quantile does, and
-- the interval's buckets as 'upper_bound_s:count' (cumulative). The gauges of the same scrapes are
-- engine_stats rows.
CREATE TABLE IF NOT EXISTS server_histogram (
    engine VARCHAR NOT NULL,
    instance VARCHAR NOT NULL,
    ts TIMESTAMP,
    source_path VARCHAR NOT NULL,
    source_line BIGINT NOT NULL,
    source_offset BIGINT NOT NULL,
    component VARCHAR NOT NULL,
    metric VARCHAR NOT NULL,
    interval_s DOUBLE,
    count BIGINT NOT NULL,
    sum_ms DOUBLE,
    p50_ms DOUBLE,
    p90_ms DOUBLE,
    p99_ms DOUBLE,
    buckets VARCHAR NOT NULL
);
