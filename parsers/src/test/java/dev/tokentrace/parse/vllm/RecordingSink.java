package dev.tokentrace.parse.vllm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.event.json.EventJson;
import dev.tokentrace.parse.ParseOutput;
import dev.tokentrace.parse.ParseSettings;
import dev.tokentrace.parse.Rejection;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** Records everything a parser reports, in order, and offers the checks the tests share. */
final class RecordingSink implements ParseOutput {
  static final ParseSettings SETTINGS = ParseSettings.of("vllm-0", 2026);
  static final String PATH = "server.log";

  final List<EngineEvent> events = new ArrayList<>();
  final List<Ignored> ignored = new ArrayList<>();
  final List<Rejection> rejections = new ArrayList<>();

  record Ignored(SourcePosition position, String rule) {}

  @Override
  public void event(EngineEvent event) {
    events.add(event);
  }

  @Override
  public void ignored(SourcePosition position, String rule) {
    ignored.add(new Ignored(position, rule));
  }

  @Override
  public void rejected(Rejection rejection) {
    rejections.add(rejection);
  }

  /** Parses the lines (line numbers from 1) with a fresh parser and finishes it. */
  static RecordingSink parse(String... lines) {
    return parse(new VllmLineParser(SETTINGS), lines);
  }

  static RecordingSink parse(VllmLineParser parser, String... lines) {
    RecordingSink sink = new RecordingSink();
    for (int i = 0; i < lines.length; i++) {
      parser.parse(lines[i], new SourcePosition(PATH, i + 1, 0), sink);
    }
    parser.finish(sink);
    return sink;
  }

  /** The line numbers that got at least one report (event, ignore or rejection). */
  Set<Long> reportedLines() {
    Set<Long> lines = new TreeSet<>();
    events.forEach(event -> lines.add(event.source().line()));
    ignored.forEach(ignore -> lines.add(ignore.position().line()));
    rejections.forEach(rejection -> lines.add(rejection.position().line()));
    return lines;
  }

  /** Every one of {@code count} lines was reported: the parser dropped nothing silently. */
  void assertEveryLineReported(int count) {
    Set<Long> expected = new TreeSet<>();
    for (long line = 1; line <= count; line++) {
      expected.add(line);
    }
    assertThat(reportedLines()).isEqualTo(expected);
  }

  List<String> rules() {
    return ignored.stream().map(Ignored::rule).toList();
  }

  List<String> reasons() {
    return rejections.stream().map(Rejection::reason).toList();
  }

  /** The events as JSON trees without the envelope fields every event shares. */
  List<JsonNode> eventBodies() {
    return events.stream().map(RecordingSink::body).toList();
  }

  static JsonNode body(EngineEvent event) {
    try {
      ObjectNode node = (ObjectNode) EventJson.mapper().readTree(EventJson.write(event));
      node.remove(List.of("engine", "instance", "source"));
      return node;
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A JSON literal written with single quotes, for readable expectations. */
  static JsonNode json(String singleQuoted) {
    try {
      return EventJson.mapper().readTree(singleQuoted.replace('\'', '"'));
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }
}
