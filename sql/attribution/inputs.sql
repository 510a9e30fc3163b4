-- attribution/inputs: a fingerprint of everything the attribution reads, so `report` can tell whether the last `correlate` saw the same data and reuse its request_attribution instead of recomputing it.
-- params:  none
-- returns: inputs (VARCHAR: '<table>=<rows>/<last rowid>' per input table, the sink's Kafka
--          positions and the loads recorded in runs)
--
-- The event and client tables only grow (the sink and `clients` append; `clients --replace` deletes
-- and appends, and records a new run either way), so rows + last rowid change whenever they do; the
-- sum of the sink's next offsets grows with every committed batch. Cheap: counts come from DuckDB's
-- metadata and max(rowid) is a scan of a virtual column. Kinds other than 'correlate' are the loads.
SELECT concat_ws(' ',
    'request_arrived=' || (SELECT count(*) || '/' || coalesce(max(rowid), -1) FROM request_arrived),
    'request_timing=' || (SELECT count(*) || '/' || coalesce(max(rowid), -1) FROM request_timing),
    'request_finished=' || (SELECT count(*) || '/' || coalesce(max(rowid), -1) FROM request_finished),
    'request_aborted=' || (SELECT count(*) || '/' || coalesce(max(rowid), -1) FROM request_aborted),
    'engine_stats=' || (SELECT count(*) || '/' || coalesce(max(rowid), -1) FROM engine_stats),
    'batch_step=' || (SELECT count(*) || '/' || coalesce(max(rowid), -1) FROM batch_step),
    'kv_transfer=' || (SELECT count(*) || '/' || coalesce(max(rowid), -1) FROM kv_transfer),
    'client_timing=' || (SELECT count(*) || '/' || coalesce(max(rowid), -1) FROM client_timing),
    'proxy_requests=' || (SELECT count(*) || '/' || coalesce(max(rowid), -1) FROM proxy_requests),
    'proxy_request=' || (SELECT count(*) || '/' || coalesce(max(rowid), -1) FROM proxy_request),
    'rejects=' || (SELECT count(*) || '/' || coalesce(max(rowid), -1) FROM rejects),
    'kafka=' || (SELECT count(*) || '/' || coalesce(sum(next_offset), 0) FROM kafka_offsets),
    'loads=' || (SELECT count(*) || '/' || coalesce(CAST(max(started_ts) AS VARCHAR), '-')
                 FROM runs WHERE kind <> 'correlate')
) AS inputs
