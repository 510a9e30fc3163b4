-- schema/014_proxy_request: a P/D proxy's access log read as events (docs/formats/pd.md#proxy-access-log),
-- version 10 of the schema (sql/schema/INDEX). A database of version 9 gets the proxy_request
-- event table on its next open.

-- proxy_request: one line of a proxy access log read by ingest, ship/sink or ingest --follow (the
-- event envelope: engine of the servers behind the proxy, instance the proxy's name, ts when it
-- logged the request). Columns as proxy_requests (013, loaded by clients); the attribution reads
-- the two tables as one mapping from client keys to the servers' keys (attribution/proxy_keys).
CREATE TABLE IF NOT EXISTS proxy_request (
    engine VARCHAR NOT NULL,
    instance VARCHAR NOT NULL,
    ts TIMESTAMP,
    source_path VARCHAR NOT NULL,
    source_line BIGINT NOT NULL,
    source_offset BIGINT NOT NULL,
    client_request_id VARCHAR NOT NULL,
    client_key VARCHAR NOT NULL,
    upstream_request_id VARCHAR NOT NULL,
    upstream_key VARCHAR NOT NULL,
    prefill VARCHAR,
    decode VARCHAR,
    status INTEGER
);
