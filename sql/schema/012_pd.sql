-- schema/012_pd: prefill/decode disaggregation (docs/formats/pd.md), version 8 of the schema
-- (sql/schema/INDEX). A database of version 7 gets the kv_transfer event table and the P/D columns
-- of request_attribution on its next open; single-server rows keep them NULL.

-- kv_transfer: the KV-cache transfer of a disaggregated request, or an engine's aggregate over a
-- log interval (docs/formats/pd.md#events). A row with request_key is one request's transfer
-- (transfers = 1, duration_ms its duration); a row without is an interval ending at ts:
-- transfers successful transfers in interval_s seconds, duration_ms their mean, p90_ms, the mean
-- MB per transfer, the throughput in MB/s, and the failed and expired transfers. side: the server
-- that logged it (prefill or decode); peer: the other server where the line names it.
CREATE TABLE IF NOT EXISTS kv_transfer (
    engine VARCHAR NOT NULL,
    instance VARCHAR NOT NULL,
    ts TIMESTAMP,
    source_path VARCHAR NOT NULL,
    source_line BIGINT NOT NULL,
    source_offset BIGINT NOT NULL,
    request_id VARCHAR,
    request_key VARCHAR,
    side VARCHAR NOT NULL,
    peer VARCHAR,
    interval_s DOUBLE,
    transfers BIGINT NOT NULL,
    duration_ms DOUBLE,
    p90_ms DOUBLE,
    mb_per_transfer DOUBLE,
    throughput_mb_s DOUBLE,
    failed BIGINT,
    expired BIGINT,
    source_kind VARCHAR NOT NULL
);

-- The P/D columns of request_attribution (docs/formats/pd.md#attribution), NULL on single-server
-- rows: kv_transfer_ms (the transfer), decode_queue_ms (the decode server's queueing after the
-- transfer), decode_instance (the decode server; instance is the prefill server),
-- kv_transfer_source (how kv_transfer_ms was obtained: 'request' from the request's own record,
-- 'interval_estimate' from the decode server's interval aggregate, docs/formats/pd.md#estimate).
-- queue_ms and prefill_ms are the prefill server's, decode_ms the decode server's.
ALTER TABLE request_attribution ADD COLUMN IF NOT EXISTS kv_transfer_ms DOUBLE;
ALTER TABLE request_attribution ADD COLUMN IF NOT EXISTS decode_queue_ms DOUBLE;
ALTER TABLE request_attribution ADD COLUMN IF NOT EXISTS decode_instance VARCHAR;
ALTER TABLE request_attribution ADD COLUMN IF NOT EXISTS kv_transfer_source VARCHAR;
