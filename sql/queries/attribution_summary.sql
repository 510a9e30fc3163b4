-- queries/attribution_summary: where does the time go? Per component P50/P90/P95/P99, share of end-to-end time and dominant counts, overall and per run, concurrency, run and concurrency, engine and instance.
-- params:  :group_by (VARCHAR, all | run | concurrency | run_concurrency | engine | instance; default
--          every grouping), :run_id (VARCHAR, default every run)
-- returns: group_by, group_value, component (network | client_queue | queue | prefill | decode |
--          total), requests, p50_ms, p90_ms, p95_ms, p99_ms, mean_ms, share, dominant_requests,
--          run_id, concurrency
--
-- 'concurrency' pools every run at a level: comparing levels across runs that measured different
-- workloads misleads; 'run_concurrency' (group_value '<run_id> @ <level>') keeps them apart. run_id
-- and concurrency are set for the groupings that have them.
-- Population: the included requests of request_attribution (matched, status ok, not warm-up, not
-- suspect); run `tokentrace correlate` first. share = sum(component) / sum(client_e2e_ms) over the
-- group, so network + client_queue + queue + prefill + decode = 1; total is client_e2e_ms itself.
-- dominant_requests = requests whose largest component is this one (total: every request).
WITH included AS (
    SELECT * FROM request_attribution
    WHERE included AND (CAST(:run_id AS VARCHAR) IS NULL OR run_id = CAST(:run_id AS VARCHAR))
),
components(ord, component) AS (
    VALUES (1, 'network'), (2, 'client_queue'), (3, 'queue'), (4, 'prefill'), (5, 'decode'),
           (6, 'total')
),
long AS (
    SELECT i.run_id, i.concurrency, i.engine, i.instance, i.dominant, i.client_e2e_ms, c.ord,
           c.component,
           CASE c.component WHEN 'network' THEN i.network_ms
                            WHEN 'client_queue' THEN i.client_queue_ms
                            WHEN 'queue' THEN i.queue_ms
                            WHEN 'prefill' THEN i.prefill_ms
                            WHEN 'decode' THEN i.decode_ms
                            ELSE i.client_e2e_ms END AS value_ms
    FROM included i
    CROSS JOIN components c
),
summary AS (
    SELECT CASE WHEN grouping(run_id) = 0 AND grouping(concurrency) = 0 THEN 'run_concurrency'
                WHEN grouping(run_id) = 0 THEN 'run'
                WHEN grouping(concurrency) = 0 THEN 'concurrency'
                WHEN grouping(engine) = 0 THEN 'engine'
                WHEN grouping(instance) = 0 THEN 'instance'
                ELSE 'all' END AS group_by,
           CASE WHEN grouping(run_id) = 0 AND grouping(concurrency) = 0
                THEN run_id || ' @ ' || coalesce(CAST(concurrency AS VARCHAR), 'unknown')
                WHEN grouping(run_id) = 0 THEN run_id
                WHEN grouping(concurrency) = 0 THEN coalesce(CAST(concurrency AS VARCHAR), 'unknown')
                WHEN grouping(engine) = 0 THEN engine
                WHEN grouping(instance) = 0 THEN instance END AS group_value,
           grouping(run_id) + 2 * grouping(concurrency) + 4 * grouping(engine)
               + 8 * grouping(instance) AS grouping_rank,
           CASE WHEN grouping(run_id) = 0 THEN run_id END AS run_id,
           CASE WHEN grouping(concurrency) = 0 THEN min(concurrency) END AS concurrency,
           min(concurrency) AS concurrency_order,
           ord,
           component,
           count(value_ms) AS requests,
           -- one aggregate for the four percentiles: four would each keep every value (DuckDB
           -- holds a quantile's input in memory), which ran out of memory_limit at 1 M requests
           quantile_cont(value_ms, [0.50, 0.90, 0.95, 0.99]) AS percentiles,
           avg(value_ms) AS mean_ms,
           sum(value_ms) / nullif(sum(client_e2e_ms), 0) AS share,
           CASE WHEN component = 'total' THEN count(*)
                ELSE count(*) FILTER (WHERE dominant = component) END AS dominant_requests
    FROM long
    GROUP BY GROUPING SETS ((ord, component), (ord, component, run_id), (ord, component, concurrency),
                            (ord, component, run_id, concurrency), (ord, component, engine),
                            (ord, component, instance))
)
SELECT group_by, group_value, component, requests, percentiles[1] AS p50_ms,
       percentiles[2] AS p90_ms, percentiles[3] AS p95_ms, percentiles[4] AS p99_ms, mean_ms, share,
       dominant_requests, run_id, concurrency
FROM summary
WHERE CAST(:group_by AS VARCHAR) IS NULL OR group_by = CAST(:group_by AS VARCHAR)
ORDER BY grouping_rank DESC, concurrency_order NULLS LAST, group_value, ord
