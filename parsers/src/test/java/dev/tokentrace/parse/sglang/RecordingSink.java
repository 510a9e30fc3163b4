package dev.tokentrace.parse.sglang;

import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.event.json.EventJson;
import dev.tokentrace.parse.ParseOutput;
import dev.tokentrace.parse.Rejection;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** Collects what a parser reports, in order, as comparable text. */
final class RecordingSink implements ParseOutput {
  final List<EngineEvent> events = new ArrayList<>();
  final List<String> ignored = new ArrayList<>();
  final List<Rejection> rejections = new ArrayList<>();

  /**
   * Every report in order: the event JSON, {@code ignored:<line>:<rule>} or {@code rejected:...}.
   */
  final List<String> all = new ArrayList<>();

  /** Line numbers that got at least one report (an event's source line, ignored, rejected). */
  final Set<Long> reportedLines = new TreeSet<>();

  @Override
  public void event(EngineEvent event) {
    events.add(event);
    all.add(EventJson.write(event));
    reportedLines.add(event.source().line());
  }

  @Override
  public void ignored(SourcePosition position, String rule) {
    ignored.add(rule);
    reportedLines.add(position.line());
    all.add("ignored:" + position.line() + ":" + rule);
  }

  @Override
  public void rejected(Rejection rejection) {
    rejections.add(rejection);
    reportedLines.add(rejection.position().line());
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
