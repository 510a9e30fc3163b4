-- report/grouping_cells: how many requests of each percentile population fall in each cell of (run, concurrency level, engine, instance), so that the report can tell which groupings split those requests exactly as another one does?
-- params:  none
-- returns: run_id, concurrency, engine, instance, included, black_box
--
-- Every grouping of queries/attribution_summary and attribution/core_metrics is a union of these
-- cells, so two groupings hold the same requests group for group exactly when each group of one
-- is made of the cells of one group of the other (report.load.SharedGroupings;
-- docs/design.md#shared-groupings). included: the requests attribution_summary aggregates
-- (included); black_box: those core_metrics aggregates (status ok, not warm-up). One hash
-- aggregate over request_attribution, a few rows in practice; at most 10,001 rows are returned, and
-- a file with more cells than that shares no grouping.
SELECT run_id, concurrency, engine, instance,
       count(*) FILTER (WHERE included) AS included,
       count(*) FILTER (WHERE status = 'ok' AND NOT warmup) AS black_box
FROM request_attribution
GROUP BY run_id, concurrency, engine, instance
HAVING count(*) FILTER (WHERE included) > 0
    OR count(*) FILTER (WHERE status = 'ok' AND NOT warmup) > 0
LIMIT 10001
