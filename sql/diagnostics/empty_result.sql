-- diagnostics/empty_result: why would a query of the attribution return no row? What the file holds on each side of the join, and whether an attribution was run.
-- params:  none
-- returns: client_rows, server_records, server_arrivals, attribution_runs, attributed, included
--
-- `tokentrace sql` runs it when a library query that reads request_attribution printed "(0 rows)",
-- and names the missing step (docs/reports.md#why-a-query-returns-no-rows): no client rows (run
-- `clients`), no server rows (run `ingest`), no attribution yet (run `correlate`), or requests
-- attributed but none included in aggregates (see `sql unmatched_requests`).
SELECT
    (SELECT count(*) FROM client_timing)         AS client_rows,
    (SELECT count(*) FROM request_timing)        AS server_records,
    (SELECT count(*) FROM request_arrived)       AS server_arrivals,
    (SELECT count(*) FROM attribution_state)     AS attribution_runs,
    (SELECT count(*) FROM request_attribution)   AS attributed,
    (SELECT count(*) FROM request_attribution WHERE included) AS included
