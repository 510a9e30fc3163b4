-- schema/013_proxy_requests: a P/D proxy's own access log (docs/formats/pd.md#proxy-access-log),
-- version 9 of the schema (sql/schema/INDEX). A proxy that sends the servers an ID of its own
-- (vLLM's example proxy makes a uuid per request) leaves the client's ID nowhere on the servers;
-- one row per logged request maps the client's ID to the one the servers saw.

-- proxy_requests: written by `tokentrace clients` from a proxy access log, in the run that loaded
-- it. client_key and upstream_key use the same normalization as every request key
-- (RequestKeys.normalize). ts: when the proxy logged the request (its end), UTC, where given;
-- prefill / decode: the servers it went to as logged; status: the HTTP status returned.
-- A client_timing row whose request_key is a client_key of this table is given the upstream_key
-- when either is loaded (docs/formats/pd.md#proxy-access-log); request_id keeps the client's ID.
CREATE TABLE IF NOT EXISTS proxy_requests (
    run_id              VARCHAR NOT NULL,
    source_path         VARCHAR NOT NULL,
    source_line         BIGINT  NOT NULL,
    ts                  TIMESTAMP,
    client_request_id   VARCHAR NOT NULL,
    client_key          VARCHAR NOT NULL,
    upstream_request_id VARCHAR NOT NULL,
    upstream_key        VARCHAR NOT NULL,
    prefill             VARCHAR,
    decode              VARCHAR,
    status              INTEGER
);
