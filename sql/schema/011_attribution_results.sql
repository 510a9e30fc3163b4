-- schema/011_attribution_results: the report's costly results stored with the attribution they
-- were computed from (docs/design.md#stored-report-results), version 6 of the schema
-- (sql/schema/INDEX). A database of version 5 gets it on its next open; nothing else changes.

-- attribution_results: one row per named query and parameters, computed by `correlate` in the
-- attribution's transaction (the exact percentiles of core_metrics, attribution_summary and
-- concurrency_sensitivity, and the evidence queries that scan every request). run_id: the
-- attribution run (runs.run_id, attribution_state.run_id) they were computed from; a report reads
-- them only while attribution_state says that run's attribution is current, else computes them.
-- query: the SQL's catalog name (e.g. attribution/core_metrics); params: its parameters as
-- 'name=value' joined by '&' in name order ('' when none); rows_json: the result rows as a JSON
-- array of the report's row objects, in the query's order. Replaced with every attribution.
CREATE TABLE IF NOT EXISTS attribution_results (
    run_id    VARCHAR NOT NULL,
    query     VARCHAR NOT NULL,
    params    VARCHAR NOT NULL,
    rows_json VARCHAR NOT NULL
);
