package dev.tokentrace.parse.trtllm;

import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.event.json.EventJson;
import dev.tokentrace.parse.LineParser;
import dev.tokentrace.parse.ParseOutput;
import dev.tokentrace.parse.Rejection;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * A sink that writes down what the parser made of each line, one string per outcome: the event as
 * its JSON, {@code ignored <line>: <rule>}, {@code rejected <line>: <reason>}.
 */
final class Recorder implements ParseOutput {
  static final String PATH = "t.log";

  final List<String> outcomes = new ArrayList<>();
  final List<EngineEvent> events = new ArrayList<>();
  final List<Rejection> rejections = new ArrayList<>();
  final Set<Long> reportedLines = new TreeSet<>();

  /** Feeds {@code lines} as lines 1..n of one source, then finishes it. */
  static Recorder run(LineParser parser, List<String> lines) {
    Recorder sink = new Recorder();
    long offset = 0;
    long number = 1;
    for (String line : lines) {
      parser.parse(line, new SourcePosition(PATH, number++, offset), sink);
      offset += line.getBytes(StandardCharsets.UTF_8).length + 1;
    }
    parser.finish(sink);
    return sink;
  }

  @Override
  public void event(EngineEvent event) {
    events.add(event);
    outcomes.add(EventJson.write(event));
    reportedLines.add(event.source().line());
  }

  @Override
  public void ignored(SourcePosition position, String rule) {
    outcomes.add("ignored " + position.line() + ": " + rule);
    reportedLines.add(position.line());
  }

  @Override
  public void rejected(Rejection rejection) {
    rejections.add(rejection);
    outcomes.add("rejected " + rejection.position().line() + ": " + rejection.reason());
    reportedLines.add(rejection.position().line());
  }
}
