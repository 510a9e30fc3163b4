-- bench/read_json_baseline: DuckDB's own NDJSON load of the events `tokentrace parse` wrote, into the
-- sink's event tables: the load limit the ingest benchmark compares against (BENCHMARKS.md).
-- One scan of the file into a temporary table, then one INSERT per event table. Statements are
-- separated by a line holding only ';'. The reader (IngestBench) puts the file's path for :path.
-- params:  :path (VARCHAR, the NDJSON file)
-- returns: nothing
CREATE OR REPLACE TEMP TABLE bench_events AS
SELECT * FROM read_json(:path, format = 'newline_delimited', columns = {
    type: 'VARCHAR', engine: 'VARCHAR', instance: 'VARCHAR', ts: 'TIMESTAMP',
    source: 'STRUCT(path VARCHAR, line BIGINT, "offset" BIGINT)',
    request_id: 'VARCHAR', request_key: 'VARCHAR', prompt_tokens: 'INTEGER', max_tokens: 'INTEGER',
    arrival_ts: 'TIMESTAMP', queue_ms: 'DOUBLE', prefill_ms: 'DOUBLE', decode_ms: 'DOUBLE',
    server_ttft_ms: 'DOUBLE', e2e_ms: 'DOUBLE', output_tokens: 'INTEGER', cached_tokens: 'INTEGER',
    finish_reason: 'VARCHAR', source_kind: 'VARCHAR', arrival_mono_s: 'DOUBLE', reason: 'VARCHAR',
    rank: 'VARCHAR', interval_s: 'DOUBLE', prompt_tps: 'DOUBLE', gen_tps: 'DOUBLE',
    running: 'INTEGER', waiting: 'INTEGER', swapped: 'INTEGER', kv_usage_pct: 'DOUBLE',
    prefix_hit_pct: 'DOUBLE', preemptions: 'INTEGER', iteration: 'BIGINT', phase: 'VARCHAR',
    batch_size: 'INTEGER', new_seqs: 'INTEGER', new_tokens: 'INTEGER', queued: 'INTEGER',
    token_usage: 'DOUBLE', throughput_tps: 'DOUBLE', step_ms: 'DOUBLE', step_ms_derived: 'BOOLEAN',
    ctx_requests: 'INTEGER', gen_requests: 'INTEGER', level: 'VARCHAR', kind: 'VARCHAR',
    message: 'VARCHAR'})
;
INSERT INTO request_arrived
SELECT engine, instance, ts, source.path, source.line, source.offset,
       request_id, request_key, prompt_tokens, max_tokens
FROM bench_events WHERE type = 'request_arrived'
;
INSERT INTO request_timing
SELECT engine, instance, ts, source.path, source.line, source.offset,
       request_id, request_key, arrival_ts, queue_ms, prefill_ms, decode_ms, server_ttft_ms, e2e_ms,
       prompt_tokens, output_tokens, cached_tokens, finish_reason, source_kind, arrival_mono_s
FROM bench_events WHERE type = 'request_timing'
;
INSERT INTO request_finished
SELECT engine, instance, ts, source.path, source.line, source.offset,
       request_id, request_key, output_tokens, finish_reason
FROM bench_events WHERE type = 'request_finished'
;
INSERT INTO request_aborted
SELECT engine, instance, ts, source.path, source.line, source.offset, request_id, request_key, reason
FROM bench_events WHERE type = 'request_aborted'
;
INSERT INTO engine_stats
SELECT engine, instance, ts, source.path, source.line, source.offset,
       rank, interval_s, prompt_tps, gen_tps, running, waiting, swapped, kv_usage_pct,
       prefix_hit_pct, preemptions
FROM bench_events WHERE type = 'engine_stats'
;
INSERT INTO batch_step
SELECT engine, instance, ts, source.path, source.line, source.offset,
       rank, iteration, phase, batch_size, new_seqs, new_tokens, cached_tokens, queued, token_usage,
       throughput_tps, step_ms, coalesce(step_ms_derived, false), ctx_requests, gen_requests
FROM bench_events WHERE type = 'batch_step'
;
INSERT INTO server_notice
SELECT engine, instance, ts, source.path, source.line, source.offset, level, kind, message
FROM bench_events WHERE type = 'server_notice'
;
DROP TABLE bench_events
