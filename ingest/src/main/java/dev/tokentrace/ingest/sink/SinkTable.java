package dev.tokentrace.ingest.sink;

import dev.tokentrace.event.BatchStep;
import dev.tokentrace.event.EngineStats;
import dev.tokentrace.event.RequestAborted;
import dev.tokentrace.event.RequestArrived;
import dev.tokentrace.event.RequestFinished;
import dev.tokentrace.event.RequestTiming;
import dev.tokentrace.event.ServerNotice;
import java.util.ArrayList;
import java.util.List;

/**
 * The tables the sink appends to, with the columns (name and DuckDB type, in table order) that
 * {@link EventRows} writes. The Appender fills columns by position and checks types strictly, so
 * the sink compares this list with the real table before writing anything ({@link DuckDbSchema}).
 */
enum SinkTable {
  REQUEST_ARRIVED(
      RequestArrived.TYPE,
      "request_id VARCHAR",
      "request_key VARCHAR",
      "prompt_tokens INTEGER",
      "max_tokens INTEGER"),
  REQUEST_TIMING(
      RequestTiming.TYPE,
      "request_id VARCHAR",
      "request_key VARCHAR",
      "arrival_ts TIMESTAMP",
      "queue_ms DOUBLE",
      "prefill_ms DOUBLE",
      "decode_ms DOUBLE",
      "server_ttft_ms DOUBLE",
      "e2e_ms DOUBLE",
      "prompt_tokens INTEGER",
      "output_tokens INTEGER",
      "cached_tokens INTEGER",
      "finish_reason VARCHAR",
      "source_kind VARCHAR",
      "arrival_mono_s DOUBLE"),
  REQUEST_FINISHED(
      RequestFinished.TYPE,
      "request_id VARCHAR",
      "request_key VARCHAR",
      "output_tokens INTEGER",
      "finish_reason VARCHAR"),
  REQUEST_ABORTED(
      RequestAborted.TYPE, "request_id VARCHAR", "request_key VARCHAR", "reason VARCHAR"),
  ENGINE_STATS(
      EngineStats.TYPE,
      "rank VARCHAR",
      "interval_s DOUBLE",
      "prompt_tps DOUBLE",
      "gen_tps DOUBLE",
      "running INTEGER",
      "waiting INTEGER",
      "swapped INTEGER",
      "kv_usage_pct DOUBLE",
      "prefix_hit_pct DOUBLE",
      "preemptions INTEGER"),
  BATCH_STEP(
      BatchStep.TYPE,
      "rank VARCHAR",
      "iteration BIGINT",
      "phase VARCHAR",
      "batch_size INTEGER",
      "new_seqs INTEGER",
      "new_tokens INTEGER",
      "cached_tokens INTEGER",
      "queued INTEGER",
      "token_usage DOUBLE",
      "throughput_tps DOUBLE",
      "step_ms DOUBLE",
      "step_ms_derived BOOLEAN",
      "ctx_requests INTEGER",
      "gen_requests INTEGER"),
  SERVER_NOTICE(ServerNotice.TYPE, "level VARCHAR", "kind VARCHAR", "message VARCHAR"),
  REJECTS(
      false,
      "rejects",
      "source_path VARCHAR",
      "line_no BIGINT",
      "byte_offset BIGINT",
      "engine VARCHAR",
      "reason VARCHAR",
      "excerpt VARCHAR",
      "ingested_ts TIMESTAMP");

  /** The event envelope, flattened, in front of every event table's own columns. */
  private static final List<String> ENVELOPE =
      List.of(
          "engine VARCHAR",
          "instance VARCHAR",
          "ts TIMESTAMP",
          "source_path VARCHAR",
          "source_line BIGINT",
          "source_offset BIGINT");

  private final String table;
  private final boolean event;
  private final List<String> ownColumns;

  SinkTable(String table, String... ownColumns) {
    this(true, table, ownColumns);
  }

  SinkTable(boolean event, String table, String... ownColumns) {
    this.table = table;
    this.event = event;
    this.ownColumns = List.of(ownColumns);
  }

  /** The table name (for event tables, the event's JSON type name). */
  String table() {
    return table;
  }

  boolean isEventTable() {
    return event;
  }

  /** {@code name TYPE} of every column in table order. */
  List<String> columns() {
    if (!event) {
      return ownColumns;
    }
    List<String> columns = new ArrayList<>(ENVELOPE);
    columns.addAll(ownColumns);
    return columns;
  }
}
