-- attribution/proxy_keys_needed: does the store hold a map from client IDs to the servers' keys, so that correlate must shadow client_timing with attribution/proxy_keys?
-- params:  none
-- returns: needed (BOOLEAN): a proxy access log's lines (proxy_requests from clients,
--          proxy_request events) or SGLang P/D records keyed by their bootstrap_room
--          (docs/formats/pd.md#proxy-access-log, docs/formats/pd.md#sglang-request-ids)
SELECT EXISTS (FROM main.proxy_requests)
    OR EXISTS (FROM main.proxy_request)
    OR EXISTS (FROM main.request_timing WHERE request_key LIKE 'bootstrap_room-%') AS needed
