package dev.tokentrace.parse.sglang;

import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.event.json.EventJson;
import dev.tokentrace.parse.ParseSink;
import dev.tokentrace.parse.Rejection;
import java.util.ArrayList;
import java.util.List;

/** Collects what a parser reports, in order, as comparable text. */
final class RecordingSink implements ParseSink {
  final List<EngineEvent> events = new ArrayList<>();
  final List<String> ignored = new ArrayList<>();
  final List<Rejection> rejections = new ArrayList<>();

  /**
   * Every report in order: the event JSON, {@code ignored:<line>:<rule>} or {@code rejected:...}.
   */
  final List<String> all = new ArrayList<>();

  @Override
  public void event(EngineEvent event) {
    events.add(event);
    all.add(EventJson.write(event));
  }

  @Override
  public void ignored(SourcePosition position, String rule) {
    ignored.add(rule);
    all.add("ignored:" + position.line() + ":" + rule);
  }

  @Override
  public void rejected(Rejection rejection) {
    rejections.add(rejection);
    all.add("rejected:" + rejection.position().line() + ":" + rejection.reason());
  }

  List<String> eventJson() {
    List<String> json = new ArrayList<>();
    for (EngineEvent event : events) {
      json.add(EventJson.write(event));
    }
    return json;
  }

  List<String> reasons() {
    List<String> reasons = new ArrayList<>();
    for (Rejection rejection : rejections) {
      reasons.add(rejection.reason());
    }
    return reasons;
  }
}
