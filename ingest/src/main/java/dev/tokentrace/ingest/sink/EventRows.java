package dev.tokentrace.ingest.sink;

import dev.tokentrace.event.BatchStep;
import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.EngineStats;
import dev.tokentrace.event.RequestAborted;
import dev.tokentrace.event.RequestArrived;
import dev.tokentrace.event.RequestFinished;
import dev.tokentrace.event.RequestTiming;
import dev.tokentrace.event.ServerNotice;
import java.sql.SQLException;

/**
 * Writes each event type as one row of its table, columns in the order of {@code
 * sql/schema/001_events.sql} (pinned by {@link SinkTable}).
 */
final class EventRows {
  private EventRows() {}

  /** Appends {@code event} to its table and returns that table. */
  static SinkTable append(EngineEvent event, Appenders appenders) throws SQLException {
    if (event instanceof RequestArrived) {
      return arrived((RequestArrived) event, appenders.row(SinkTable.REQUEST_ARRIVED));
    } else if (event instanceof RequestTiming) {
      return timing((RequestTiming) event, appenders.row(SinkTable.REQUEST_TIMING));
    } else if (event instanceof RequestFinished) {
      return finished((RequestFinished) event, appenders.row(SinkTable.REQUEST_FINISHED));
    } else if (event instanceof RequestAborted) {
      return aborted((RequestAborted) event, appenders.row(SinkTable.REQUEST_ABORTED));
    } else if (event instanceof EngineStats) {
      return stats((EngineStats) event, appenders.row(SinkTable.ENGINE_STATS));
    } else if (event instanceof BatchStep) {
      return step((BatchStep) event, appenders.row(SinkTable.BATCH_STEP));
    } else if (event instanceof ServerNotice) {
      return notice((ServerNotice) event, appenders.row(SinkTable.SERVER_NOTICE));
    }
    throw new IllegalStateException("unhandled event: " + event);
  }

  private static Row envelope(EngineEvent event, Row row) throws SQLException {
    return row.begin()
        .text(event.engine().id())
        .text(event.instance())
        .timestamp(event.ts())
        .text(event.source().path())
        .int64(event.source().line())
        .int64(event.source().offset());
  }

  private static SinkTable arrived(RequestArrived event, Row row) throws SQLException {
    envelope(event, row)
        .text(event.requestId())
        .text(event.requestKey())
        .int32(event.promptTokens())
        .int32(event.maxTokens())
        .end();
    return SinkTable.REQUEST_ARRIVED;
  }

  private static SinkTable timing(RequestTiming event, Row row) throws SQLException {
    envelope(event, row)
        .text(event.requestId())
        .text(event.requestKey())
        .timestamp(event.arrivalTs())
        .float64(event.queueMs())
        .float64(event.prefillMs())
        .float64(event.decodeMs())
        .float64(event.serverTtftMs())
        .float64(event.e2eMs())
        .int32(event.promptTokens())
        .int32(event.outputTokens())
        .int32(event.cachedTokens())
        .text(event.finishReason())
        .text(event.sourceKind())
        .float64(event.arrivalMonoS())
        .end();
    return SinkTable.REQUEST_TIMING;
  }

  private static SinkTable finished(RequestFinished event, Row row) throws SQLException {
    envelope(event, row)
        .text(event.requestId())
        .text(event.requestKey())
        .int32(event.outputTokens())
        .text(event.finishReason())
        .end();
    return SinkTable.REQUEST_FINISHED;
  }

  private static SinkTable aborted(RequestAborted event, Row row) throws SQLException {
    envelope(event, row)
        .text(event.requestId())
        .text(event.requestKey())
        .text(event.reason())
        .end();
    return SinkTable.REQUEST_ABORTED;
  }

  private static SinkTable stats(EngineStats event, Row row) throws SQLException {
    envelope(event, row)
        .text(event.rank())
        .float64(event.intervalS())
        .float64(event.promptTps())
        .float64(event.genTps())
        .int32(event.running())
        .int32(event.waiting())
        .int32(event.swapped())
        .float64(event.kvUsagePct())
        .float64(event.prefixHitPct())
        .int32(event.preemptions())
        .end();
    return SinkTable.ENGINE_STATS;
  }

  private static SinkTable step(BatchStep event, Row row) throws SQLException {
    envelope(event, row)
        .text(event.rank())
        .int64(event.iteration())
        .text(event.phase().id())
        .int32(event.batchSize())
        .int32(event.newSeqs())
        .int32(event.newTokens())
        .int32(event.cachedTokens())
        .int32(event.queued())
        .float64(event.tokenUsage())
        .float64(event.throughputTps())
        .float64(event.stepMs())
        .bool(event.stepMsDerived())
        .int32(event.ctxRequests())
        .int32(event.genRequests())
        .end();
    return SinkTable.BATCH_STEP;
  }

  private static SinkTable notice(ServerNotice event, Row row) throws SQLException {
    envelope(event, row).text(event.level()).text(event.kind().id()).text(event.message()).end();
    return SinkTable.SERVER_NOTICE;
  }
}
