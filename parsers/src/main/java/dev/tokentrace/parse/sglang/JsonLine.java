package dev.tokentrace.parse.sglang;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.parse.ParseOutput;
import dev.tokentrace.parse.Rejection;
import dev.tokentrace.parse.Timestamps;
import java.io.IOException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.jspecify.annotations.Nullable;

/**
 * Turns SGLang's JSON lines ({@link JsonRecord}) into events: {@code request.received} → {@code
 * request_arrived} per rid; {@code request.finished} → {@code request_finished} (+ {@code
 * request_aborted}) and {@code request_timing} (source kind {@code meta_info}); a metrics-export
 * record → {@code request_timing} (source kind {@code metrics_export}, ts = the record's finish
 * time, since it has no timestamp). The OpenAI echo and scheduler status records are ignored by
 * name; any other JSON is rejected. Not thread-safe (shares the parser's clock).
 */
final class JsonLine {
  static final String EXPORT_KIND = "metrics_export";
  static final String OPENAI_ECHO = "sglang: openai request echo";
  static final String SCHEDULER_STATUS = "sglang: scheduler status record";
  static final String EXPORT_WITHOUT_TIMING = "sglang: metrics record without timings";

  private final RequestEvents events;
  private final Timestamps.Local clock;

  JsonLine(RequestEvents events, Timestamps.Local clock) {
    this.events = events;
    this.clock = clock;
  }

  void parse(String line, SourcePosition source, ParseOutput sink) {
    JsonRecord record;
    try {
      record = JsonRecord.read(line);
    } catch (IOException malformed) {
      // bad input, not a bug: Jackson reports truncated, invalid or oversized JSON by throwing
      reject(line, "json line: malformed", source, sink);
      return;
    }
    String event = record.event;
    if (event == null) {
      if (record.exportRecord) {
        export(line, record, source, sink);
      } else {
        reject(line, "json line: not an sglang record", source, sink);
      }
      return;
    }
    switch (event) {
      case "request.received":
        received(line, record, source, sink);
        break;
      case "request.finished":
        finished(line, record, source, sink);
        break;
      case "request.received.openai":
        sink.ignored(source, OPENAI_ECHO);
        break;
      case "scheduler.status":
        sink.ignored(source, SCHEDULER_STATUS);
        break;
      default:
        reject(line, "json line: unknown event", source, sink);
    }
  }

  private void received(String line, JsonRecord record, SourcePosition source, ParseOutput sink) {
    if (record.rids.isEmpty()) {
      reject(line, "json request log: no rid", source, sink);
      return;
    }
    Instant ts = timestamp(record);
    for (String rid : record.rids) {
      events.arrived(ts, source, rid, record.maxNewTokens, sink);
    }
  }

  private void finished(String line, JsonRecord record, SourcePosition source, ParseOutput sink) {
    MetaInfo meta = record.metaInfo();
    String rid = record.rids.size() == 1 ? record.rids.get(0) : meta.id();
    if (rid == null || rid.isBlank()) {
      reject(line, "json request log: no rid", source, sink);
    } else if (meta.problem() != null) {
      reject(line, "json request log: " + meta.problem(), source, sink);
    } else {
      events.finished(timestamp(record), source, rid, meta, RequestLine.SOURCE_KIND, sink);
    }
  }

  private void export(String line, JsonRecord record, SourcePosition source, ParseOutput sink) {
    MetaInfo meta = record.metaInfo();
    String rid = meta.id();
    if (rid == null || rid.isBlank()) {
      reject(line, "metrics record: no rid", source, sink);
    } else if (meta.problem() != null) {
      reject(line, "metrics record: " + meta.problem(), source, sink);
    } else if (!events.timing(meta.finishedAt(), source, rid, meta, EXPORT_KIND, sink)) {
      sink.ignored(source, EXPORT_WITHOUT_TIMING);
    }
  }

  /** {@code datetime.now().isoformat()}: local time with microseconds, no zone. */
  private @Nullable Instant timestamp(JsonRecord record) {
    String text = record.timestamp;
    if (text == null) {
      return null;
    }
    int length = Timestamps.isoLocalLength(text, 0);
    Instant ts = length == text.length() ? clock.isoLocal(text, 0, length) : null;
    return ts == null ? null : ts.truncatedTo(ChronoUnit.MILLIS);
  }

  private static void reject(String line, String reason, SourcePosition source, ParseOutput sink) {
    sink.rejected(Rejection.of(source, Engine.SGLANG, reason, EventText.requestExcerpt(line, 120)));
  }
}
