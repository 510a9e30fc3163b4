-- report/ftl_cdf: how is first-token latency distributed at each concurrency level of each run (the points of a CDF)?
-- params:  :points (INTEGER, default 40)
-- returns: run_id, concurrency, requests, fraction, ftl_ms
--
-- Client requests with status ok, not warm-up, with an FTL, per run and concurrency level: the FTL
-- at fractions 0, 1/:points, ..., 1 (quantile_cont: fraction f of the requests had an FTL at or below
-- ftl_ms; interpolated between neighbours as quantile_cont does). :points + 1 rows per series,
-- whatever its size, so a chart stays small.
WITH population AS (
    SELECT run_id, concurrency, client_ttft_ms
    FROM request_attribution
    WHERE status = 'ok' AND NOT warmup AND client_ttft_ms IS NOT NULL
),
fractions AS (
    SELECT CAST(i AS DOUBLE) / coalesce(CAST(:points AS INTEGER), 40) AS fraction
    FROM range(0, coalesce(CAST(:points AS INTEGER), 40) + 1) r(i)
),
series AS (
    SELECT run_id, concurrency, count(*) AS requests,
           list_sort(list(client_ttft_ms)) AS sorted_ms
    FROM population
    GROUP BY run_id, concurrency
),
positions AS (
    SELECT s.run_id, s.concurrency, s.requests, s.sorted_ms, f.fraction,
           f.fraction * (s.requests - 1) AS position
    FROM series s
    CROSS JOIN fractions f
)
SELECT run_id, concurrency, requests, fraction,
       sorted_ms[CAST(floor(position) AS BIGINT) + 1]
           + (position - floor(position))
             * (sorted_ms[CAST(ceil(position) AS BIGINT) + 1]
                - sorted_ms[CAST(floor(position) AS BIGINT) + 1]) AS ftl_ms
FROM positions
ORDER BY run_id, concurrency NULLS LAST, fraction
