package dev.tokentrace.parse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.event.BatchStep;
import dev.tokentrace.event.Engine;
import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.SourcePosition;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** One row per collector envelope of docs/formats/collectors.md, composed by us to its format. */
final class CollectorWrappersTest {
  private static final String SGLANG =
      "[2026-01-02 15:04:05 TP0] Decode batch. #running-req: 1, #token: 10, token usage: 0.00,"
          + " gen throughput (token/s): 1.00, #queue-req: 0";

  static Stream<Arguments> envelopes() {
    return Stream.of(
        row(
            "docker json-file",
            "{\"log\":\"hello world\\n\",\"stream\":\"stdout\",\"time\":\"2026-01-02T03:04:05.123456789Z\"}",
            "hello world",
            "2026-01-02T03:04:05.123456789Z",
            false,
            "docker-json"),
        row(
            "docker json-file part (no newline)",
            "{\"log\":\"first half\",\"stream\":\"stderr\",\"time\":\"2026-01-02T03:04:05Z\"}",
            "first half",
            "2026-01-02T03:04:05Z",
            true,
            "docker-json"),
        row(
            "docker json-file with attrs and escapes",
            "{\"log\":\"\\u001b[32mINFO\\u001b[0m x\\r\\n\",\"stream\":\"stdout\","
                + "\"attrs\":{\"tag\":\"vllm\"},\"time\":\"2026-01-02T03:04:05Z\"}",
            "\u001B[32mINFO\u001B[0m x\r",
            "2026-01-02T03:04:05Z",
            false,
            "docker-json"),
        row(
            "CRI full line",
            "2026-01-02T03:04:05.123456789Z stdout F hello world",
            "hello world",
            "2026-01-02T03:04:05.123456789Z",
            false,
            "cri"),
        row(
            "CRI partial line",
            "2026-01-02T03:04:05.123456789+01:00 stderr P first half",
            "first half",
            "2026-01-02T02:04:05.123456789Z",
            true,
            "cri"),
        row(
            "CRI empty line",
            "2026-01-02T03:04:05Z stdout F",
            "",
            "2026-01-02T03:04:05Z",
            false,
            "cri"),
        row(
            "kubectl logs --timestamps",
            "2026-01-02T03:04:05.5Z INFO 01-02 03:04:05 [x.py:1] y",
            "INFO 01-02 03:04:05 [x.py:1] y",
            "2026-01-02T03:04:05.500Z",
            false,
            "timestamp"),
        row(
            "journald short",
            "Jan 02 03:04:05 gpu-7 python3[4242]: hello",
            "hello",
            null,
            false,
            "journald"),
        row(
            "journald short-precise",
            "Jan  2 03:04:05.123456 gpu-7 vllm[1]: hello",
            "hello",
            null,
            false,
            "journald"),
        row(
            "journald short-iso",
            "2026-01-02T03:04:05+0100 gpu-7 python3[4242]: hello",
            "hello",
            "2026-01-02T02:04:05Z",
            false,
            "journald"),
        row(
            "journald short-iso-precise",
            "2026-01-02T03:04:05.123456+0000 gpu-7 python3[4242]: hello",
            "hello",
            "2026-01-02T03:04:05.123456Z",
            false,
            "journald"),
        row(
            "journald short-full",
            "Fri 2026-01-02 03:04:05 UTC gpu-7 python3[4242]: hello",
            "hello",
            "2026-01-02T03:04:05Z",
            false,
            "journald"),
        row(
            "kubectl --prefix inside CRI",
            "2026-01-02T03:04:05Z stdout F [pod/vllm-0/server] hello",
            "hello",
            "2026-01-02T03:04:05Z",
            false,
            "cri+kubectl-prefix"),
        row("compose", "sglang-1  | " + SGLANG, SGLANG, null, false, "compose"),
        row(
            "collector time before SGLang's header",
            "2026-01-02 15:04:05.123 " + SGLANG,
            SGLANG,
            "2026-01-02T15:04:05.123Z",
            false,
            "collector-timestamp"),
        row(
            "bracketed collector time before SGLang's header",
            "[2026-01-02 15:04:05,123] " + SGLANG,
            SGLANG,
            "2026-01-02T15:04:05.123Z",
            false,
            "collector-timestamp"),
        row(
            "bracketed ISO time with zone before any text",
            "[2026-01-02T15:04:05.123+02:00] hello",
            "hello",
            "2026-01-02T13:04:05.123Z",
            false,
            "collector-timestamp"),
        row(
            "collector time before vLLM's header",
            "2026-01-02 03:04:05 INFO 01-02 03:04:05 [x.py:1] y",
            "INFO 01-02 03:04:05 [x.py:1] y",
            "2026-01-02T03:04:05Z",
            false,
            "collector-timestamp"),
        row(
            "collector time before a vLLM process prefix",
            "2026-01-02 03:04:05 (APIServer pid=7) INFO 01-02 03:04:05 [x.py:1] y",
            "(APIServer pid=7) INFO 01-02 03:04:05 [x.py:1] y",
            "2026-01-02T03:04:05Z",
            false,
            "collector-timestamp"),
        row(
            "collector time before TensorRT-LLM's C++ logger",
            "2026-01-02 03:04:05 [TensorRT-LLM][INFO] y",
            "[TensorRT-LLM][INFO] y",
            "2026-01-02T03:04:05Z",
            false,
            "collector-timestamp"));
  }

  /** Lines that must reach the engine untouched. */
  static Stream<Arguments> engineLines() {
    return Stream.of(
        Arguments.of("SGLang's own header", SGLANG),
        Arguments.of("SGLang without rank", "[2026-01-02 15:04:05] Load weight end."),
        Arguments.of("SGLang with ms", "[2026-01-02 15:04:05.123 TP0] Load weight end."),
        Arguments.of(
            "embedder's time before a message (SGLang finds it itself)",
            "2025-12-04 20:35:53 INFO 151972 [scheduler.py:287] Decode batch. #running-req: 1"),
        Arguments.of("vLLM header", "INFO 01-02 03:04:05 [x.py:1] y"),
        Arguments.of("TensorRT-LLM Python", "[01/02/2026-03:04:05] [TRT-LLM] [I] y"),
        Arguments.of("JSON record", "{\"rid\": \"a\", \"e2e_latency\": 1}"),
        Arguments.of("JSON whose first key is log but not Docker's", "{\"log\": 5}"),
        Arguments.of("truncated docker record", "{\"log\":\"abc"),
        Arguments.of("kubectl-looking SGLang request line", "Receive OpenAI: obj={}"),
        Arguments.of("uvicorn", "INFO:     10.0.0.1:5 - \"POST /v1 HTTP/1.1\" 200 OK"),
        Arguments.of("blank", ""));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("envelopes")
  void removesTheEnvelope(
      String name,
      String line,
      String text,
      @org.jspecify.annotations.Nullable String ts,
      boolean partial,
      String wrappers) {
    CollectorWrappers collector = new CollectorWrappers(ZoneOffset.UTC);

    assertThat(collector.unwrap(line)).isTrue();
    assertThat(collector.text()).isEqualTo(text);
    assertThat(collector.ts()).isEqualTo(ts == null ? null : Instant.parse(ts));
    assertThat(collector.partial()).isEqualTo(partial);
    assertThat(collector.wrappers()).isEqualTo(wrappers);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("engineLines")
  void leavesEngineLinesAlone(String name, String line) {
    CollectorWrappers collector = new CollectorWrappers(ZoneOffset.UTC);

    assertThat(collector.unwrap(line)).isFalse();
    assertThat(collector.text()).isSameAs(line);
  }

  @Test
  void aCollectorTimeWithoutZoneIsInTheSettingsZone() {
    CollectorWrappers collector = new CollectorWrappers(ZoneId.of("Europe/Berlin"));

    collector.unwrap("2026-07-02 15:04:05 " + SGLANG);

    assertThat(collector.ts()).isEqualTo(Instant.parse("2026-07-02T13:04:05Z"));
  }

  /**
   * The lost line: a collector's bracketed time in front of SGLang's header was taken for
   * SGLang's own header and the batch line ignored as "other message", rank and all.
   */
  @Test
  void sglangLinesBehindACollectorTimeKeepTheirEventAndRank() {
    List<EngineEvent> events = new ArrayList<>();
    Recorder sink = new Recorder(events);
    LineParser parser = Parsers.create(Engine.SGLANG, ParseSettings.of("x", 2026));

    parser.parse("[2026-01-02 15:04:05.123] " + SGLANG, position(1), sink);
    parser.parse("2026-01-02 15:04:05,123 " + SGLANG, position(2), sink);
    parser.finish(sink);

    assertThat(sink.ignored).isEmpty();
    assertThat(events).hasSize(2).allSatisfy(event -> assertRank(event, "TP0"));
  }

  @Test
  void partsAreJoinedPerStreamAndEachPartIsAccountedFor() {
    List<EngineEvent> events = new ArrayList<>();
    Recorder sink = new Recorder(events);
    LineParser parser = Parsers.create(Engine.SGLANG, ParseSettings.of("x", 2026));
    String cut = SGLANG.substring(0, 40);
    String rest = SGLANG.substring(40);

    parser.parse("2026-01-02T15:04:05Z stdout P " + cut, position(1), sink);
    parser.parse(
        "2026-01-02T15:04:05Z stderr F [2026-01-02 15:04:06] Load weight end.", position(2), sink);
    parser.parse("2026-01-02T15:04:05Z stdout F " + rest, position(3), sink);
    parser.finish(sink);

    assertThat(sink.ignored).containsExactly(1L, 2L);
    assertThat(events).hasSize(1);
    assertThat(events.get(0).source().line()).isEqualTo(3);
    assertRank(events.get(0), "TP0");
  }

  @Test
  void partsWithoutAFinalPartAreParsedAtTheEnd() {
    List<EngineEvent> events = new ArrayList<>();
    Recorder sink = new Recorder(events);
    LineParser parser = Parsers.create(Engine.SGLANG, ParseSettings.of("x", 2026));

    parser.parse(
        "{\"log\":\"" + SGLANG + "\",\"stream\":\"stdout\",\"time\":\"2026-01-02T15:04:05Z\"}",
        position(1),
        sink);
    parser.finish(sink);

    assertThat(sink.ignored).containsExactly(1L);
    assertThat(events).hasSize(1);
  }

  @Test
  void containerTimeDatesTensorRtLlmCppLines() {
    List<EngineEvent> events = new ArrayList<>();
    Recorder sink = new Recorder(events);
    LineParser parser = Parsers.create(Engine.TRTLLM, ParseSettings.of("x", 2026));

    parser.parse(
        "{\"log\":\"[TensorRT-LLM][WARNING] low memory\\n\",\"stream\":\"stderr\","
            + "\"time\":\"2026-01-02T15:04:05.25Z\"}",
        position(1),
        sink);
    parser.parse("[TensorRT-LLM][WARNING] no envelope, no time", position(2), sink);
    parser.finish(sink);

    assertThat(events).hasSize(2);
    assertThat(events.get(0).ts()).isEqualTo(Instant.parse("2026-01-02T15:04:05.25Z"));
    assertThat(events.get(1).ts()).isNull();
  }

  private static void assertRank(EngineEvent event, String rank) {
    assertThat(event).isInstanceOf(BatchStep.class);
    assertThat(((BatchStep) event).rank()).isEqualTo(rank);
  }

  private static SourcePosition position(long line) {
    return new SourcePosition("f.log", line, 0);
  }

  private static Arguments row(
      String name,
      String line,
      String text,
      @org.jspecify.annotations.Nullable String ts,
      boolean partial,
      String wrappers) {
    return Arguments.of(name, line, text, ts, partial, wrappers);
  }

  private static final class Recorder implements ParseOutput {
    final List<EngineEvent> events;
    final List<Long> ignored = new ArrayList<>();
    final List<String> rejected = new ArrayList<>();

    Recorder(List<EngineEvent> events) {
      this.events = events;
    }

    @Override
    public void event(EngineEvent event) {
      events.add(event);
    }

    @Override
    public void ignored(SourcePosition position, String rule) {
      ignored.add(position.line());
    }

    @Override
    public void rejected(Rejection rejection) {
      rejected.add(rejection.reason());
    }
  }
}
