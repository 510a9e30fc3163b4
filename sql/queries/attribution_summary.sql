-- queries/attribution_summary: where does the time go? Per component P50/P90/P95/P99, share of end-to-end time and dominant counts, overall and per run, concurrency, run and concurrency, engine and instance.
-- params:  :group_by (VARCHAR, all | run | concurrency | run_concurrency | engine | instance; default
--          every grouping), :run_id (VARCHAR, default every run), :components (VARCHAR,
--          comma-separated list of network | client_queue | queue | prefill | decode | total;
--          default all six)
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
--
-- Memory: exact percentiles keep every value of a group (DuckDB cannot spill them): 8 bytes per
-- included request, component and grouping. Each grouping holds every request once, so all six
-- at 10 M requests need ≈ 2.9 GB; one :group_by at a time ≈ 0.5 GB (more while DuckDB grows its
-- buffers), three :components of one :group_by ≈ 0.25 GB, which is how `report` runs it
-- (BENCHMARKS.md, "Correlation and report"). The grouping is chosen before aggregating, each group
-- aggregates its components side by side (not one row per component), and a component not asked
-- for aggregates only NULLs, which hold no memory.
WITH chosen AS (
    SELECT CAST(:group_by AS VARCHAR) AS group_by, CAST(:run_id AS VARCHAR) AS run_id,
           string_split(coalesce(CAST(:components AS VARCHAR),
                                 'network,client_queue,queue,prefill,decode,total'), ',')
               AS components
),
settings AS (
    -- one flag per component, decided once (not a list looked up for every request)
    SELECT group_by, run_id, components,
           list_contains(components, 'network') AS want_network,
           list_contains(components, 'client_queue') AS want_client_queue,
           list_contains(components, 'queue') AS want_queue,
           list_contains(components, 'prefill') AS want_prefill,
           list_contains(components, 'decode') AS want_decode,
           list_contains(components, 'total') AS want_total
    FROM chosen
),
included AS (
    SELECT a.* FROM request_attribution a, settings s
    WHERE a.included AND (s.run_id IS NULL OR a.run_id = s.run_id)
),
-- grouping_rank orders the groupings as before: all, run, concurrency, run_concurrency, engine,
-- instance
groupings(grouping_rank, group_by) AS (
    VALUES (15, 'all'), (14, 'run'), (13, 'concurrency'), (12, 'run_concurrency'), (11, 'engine'),
           (7, 'instance')
),
keyed AS (
    SELECT g.grouping_rank, g.group_by,
           CASE g.group_by WHEN 'run' THEN i.run_id
                           WHEN 'concurrency' THEN coalesce(CAST(i.concurrency AS VARCHAR), 'unknown')
                           WHEN 'run_concurrency'
                           THEN i.run_id || ' @ ' || coalesce(CAST(i.concurrency AS VARCHAR), 'unknown')
                           WHEN 'engine' THEN i.engine
                           WHEN 'instance' THEN i.instance END AS group_value,
           CASE WHEN g.group_by IN ('run', 'run_concurrency') THEN i.run_id END AS run_id,
           CASE WHEN g.group_by IN ('concurrency', 'run_concurrency') THEN i.concurrency END
               AS concurrency,
           i.concurrency AS level, i.dominant,
           CASE WHEN s.want_network THEN i.network_ms END AS network_ms,
           CASE WHEN s.want_client_queue THEN i.client_queue_ms END
               AS client_queue_ms,
           CASE WHEN s.want_queue THEN i.queue_ms END AS queue_ms,
           CASE WHEN s.want_prefill THEN i.prefill_ms END AS prefill_ms,
           CASE WHEN s.want_decode THEN i.decode_ms END AS decode_ms,
           CASE WHEN s.want_total THEN i.client_e2e_ms END AS total_ms,
           i.client_e2e_ms
    FROM included i
    CROSS JOIN settings s
    -- the chosen groupings first (one row, or six): every request is paired with them only
    CROSS JOIN (SELECT g.* FROM groupings g, settings s
                WHERE g.group_by = coalesce(s.group_by, g.group_by)) g
),
wide AS (
    SELECT grouping_rank, group_by, group_value, run_id, concurrency,
           min(level) AS concurrency_order,
           count(*) AS rows,
           sum(client_e2e_ms) AS e2e_sum,
           -- one list aggregate per component: four would each keep every value
           count(network_ms) AS network_n, avg(network_ms) AS network_mean,
           sum(network_ms) AS network_sum, count(*) FILTER (WHERE dominant = 'network') AS network_dom,
           quantile_cont(network_ms, [0.50, 0.90, 0.95, 0.99]) AS network_q,
           count(client_queue_ms) AS client_queue_n, avg(client_queue_ms) AS client_queue_mean,
           sum(client_queue_ms) AS client_queue_sum,
           count(*) FILTER (WHERE dominant = 'client_queue') AS client_queue_dom,
           quantile_cont(client_queue_ms, [0.50, 0.90, 0.95, 0.99]) AS client_queue_q,
           count(queue_ms) AS queue_n, avg(queue_ms) AS queue_mean, sum(queue_ms) AS queue_sum,
           count(*) FILTER (WHERE dominant = 'queue') AS queue_dom,
           quantile_cont(queue_ms, [0.50, 0.90, 0.95, 0.99]) AS queue_q,
           count(prefill_ms) AS prefill_n, avg(prefill_ms) AS prefill_mean,
           sum(prefill_ms) AS prefill_sum, count(*) FILTER (WHERE dominant = 'prefill') AS prefill_dom,
           quantile_cont(prefill_ms, [0.50, 0.90, 0.95, 0.99]) AS prefill_q,
           count(decode_ms) AS decode_n, avg(decode_ms) AS decode_mean, sum(decode_ms) AS decode_sum,
           count(*) FILTER (WHERE dominant = 'decode') AS decode_dom,
           quantile_cont(decode_ms, [0.50, 0.90, 0.95, 0.99]) AS decode_q,
           count(total_ms) AS total_n, avg(total_ms) AS total_mean,
           quantile_cont(total_ms, [0.50, 0.90, 0.95, 0.99]) AS total_q
    FROM keyed
    GROUP BY grouping_rank, group_by, group_value, run_id, concurrency
),
components(ord, component) AS (
    VALUES (1, 'network'), (2, 'client_queue'), (3, 'queue'), (4, 'prefill'), (5, 'decode'),
           (6, 'total')
),
summary AS (
    SELECT w.group_by, w.group_value, w.grouping_rank, w.run_id, w.concurrency, w.concurrency_order,
           c.ord, c.component,
           CASE c.component WHEN 'network' THEN network_n WHEN 'client_queue' THEN client_queue_n
                            WHEN 'queue' THEN queue_n WHEN 'prefill' THEN prefill_n
                            WHEN 'decode' THEN decode_n ELSE total_n END AS requests,
           CASE c.component WHEN 'network' THEN network_q WHEN 'client_queue' THEN client_queue_q
                            WHEN 'queue' THEN queue_q WHEN 'prefill' THEN prefill_q
                            WHEN 'decode' THEN decode_q ELSE total_q END AS percentiles,
           CASE c.component WHEN 'network' THEN network_mean
                            WHEN 'client_queue' THEN client_queue_mean
                            WHEN 'queue' THEN queue_mean WHEN 'prefill' THEN prefill_mean
                            WHEN 'decode' THEN decode_mean ELSE total_mean END AS mean_ms,
           CASE c.component WHEN 'network' THEN network_sum WHEN 'client_queue' THEN client_queue_sum
                            WHEN 'queue' THEN queue_sum WHEN 'prefill' THEN prefill_sum
                            WHEN 'decode' THEN decode_sum ELSE e2e_sum END / nullif(e2e_sum, 0)
               AS share,
           CASE c.component WHEN 'network' THEN network_dom WHEN 'client_queue' THEN client_queue_dom
                            WHEN 'queue' THEN queue_dom WHEN 'prefill' THEN prefill_dom
                            WHEN 'decode' THEN decode_dom ELSE rows END AS dominant_requests
    FROM wide w
    CROSS JOIN components c
    WHERE list_contains((SELECT components FROM settings), c.component)
)
SELECT group_by, group_value, component, requests, percentiles[1] AS p50_ms,
       percentiles[2] AS p90_ms, percentiles[3] AS p95_ms, percentiles[4] AS p99_ms, mean_ms, share,
       dominant_requests, run_id, concurrency
FROM summary
ORDER BY grouping_rank DESC, concurrency_order NULLS LAST, group_value, ord
