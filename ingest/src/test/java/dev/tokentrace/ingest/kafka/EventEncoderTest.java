package dev.tokentrace.ingest.kafka;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.event.BatchStep;
import dev.tokentrace.event.Engine;
import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.EngineStats;
import dev.tokentrace.event.Phase;
import dev.tokentrace.event.RequestAborted;
import dev.tokentrace.event.RequestArrived;
import dev.tokentrace.event.RequestFinished;
import dev.tokentrace.event.RequestTiming;
import dev.tokentrace.event.ServerNotice;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.event.json.EventJson;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

final class EventEncoderTest {
  private static final Instant TS = Instant.parse("2026-02-13T11:33:33.123456789Z");
  private static final SourcePosition SOURCE = new SourcePosition("logs/server.log", 9, 1_234);

  @Test
  void writesTheBytesEventJsonWritesForEveryTypeWithAndWithoutItsNullableFields() {
    for (EngineEvent event : everyType()) {
      assertThat(new String(EventEncoder.encode(event), UTF_8))
          .as(event.toString())
          .isEqualTo(EventJson.write(event));
    }
  }

  @Test
  void writesTimestampsNumbersAndEdgeValuesLikeEventJson() {
    List<EngineEvent> events = new ArrayList<>();
    for (Instant ts :
        List.of(
            Instant.parse("1000-01-01T00:00:00Z"),
            Instant.parse("9999-12-31T23:59:59.999999999Z"),
            Instant.parse("1969-12-31T23:59:59.001Z"),
            Instant.parse("2024-02-29T12:00:00.5Z"),
            Instant.parse("0999-12-31T23:59:59Z"),
            Instant.parse("+10000-01-01T00:00:00Z"),
            Instant.parse("-0001-01-01T00:00:00Z"))) {
      events.add(arrived(ts, "r", 0, Integer.MAX_VALUE));
    }
    for (double value : new double[] {0.0, -0.0, 1e-7, 1e7, 123456789.125, Double.MIN_VALUE}) {
      events.add(timing(value));
    }
    for (EngineEvent event : events) {
      assertThat(new String(EventEncoder.encode(event), UTF_8))
          .as(event.toString())
          .isEqualTo(EventJson.write(event));
    }
  }

  @Test
  void leavesTextThatNeedsEscapingOrIsNotAsciiToEventJson() {
    for (String text :
        List.of("quo\"te", "back\\slash", "tab\there", "new\nline", "é ✓", "\u007f", "𝄞")) {
      EngineEvent event = arrived(TS, text, null, null);
      assertThat(EventEncoder.encode(event)).isEqualTo(EventJson.write(event).getBytes(UTF_8));
    }
  }

  private static List<EngineEvent> everyType() {
    return List.of(
        arrived(TS, "chatcmpl-1", 12, 256),
        arrived(null, "chatcmpl-1", null, null),
        new RequestTiming(
            Engine.VLLM,
            "a",
            TS,
            SOURCE,
            "cmpl-1-0",
            "1",
            TS.minusMillis(7),
            1.5,
            2.25,
            3.0,
            4.0,
            5.5,
            10,
            20,
            30,
            "stop",
            "otlp",
            1234.875),
        new RequestTiming(
            Engine.VLLM,
            "a",
            null,
            SOURCE,
            "cmpl-1-0",
            "1",
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            "otlp",
            null),
        new RequestFinished(Engine.SGLANG, "b", TS, SOURCE, "r", "r", 17, "length"),
        new RequestFinished(Engine.SGLANG, "b", null, SOURCE, "r", "r", null, null),
        new RequestAborted(Engine.TRTLLM, "c", TS, SOURCE, "r", "r", "client disconnected"),
        new RequestAborted(Engine.TRTLLM, "c", null, SOURCE, "r", "r", null),
        new EngineStats(
            Engine.VLLM, "d", TS, SOURCE, "Engine 000", 10.0, 612.4, 95.0, 3, 1, 0, 42.5, -1.5, 2),
        new EngineStats(
            Engine.VLLM,
            "d",
            null,
            SOURCE,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null),
        new BatchStep(
            Engine.TRTLLM,
            "e",
            TS,
            SOURCE,
            "DP0 TP1",
            (1L << 40) + 3,
            Phase.values()[0],
            8,
            2,
            512,
            128,
            3,
            0.75,
            1800.5,
            23.25,
            true,
            4,
            12),
        new BatchStep(
            Engine.TRTLLM,
            "e",
            null,
            SOURCE,
            null,
            null,
            Phase.values()[1],
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            false,
            null,
            null),
        new ServerNotice(
            Engine.SGLANG, "f", TS, SOURCE, "WARNING", ServerNotice.Kind.PREEMPTION, "preempted 3"),
        new ServerNotice(Engine.SGLANG, "f", null, SOURCE, "INFO", ServerNotice.Kind.CONFIG, ""));
  }

  private static EngineEvent arrived(
      Instant ts, String id, Integer promptTokens, Integer maxTokens) {
    return new RequestArrived(Engine.VLLM, "a", ts, SOURCE, id, "k", promptTokens, maxTokens);
  }

  private static EngineEvent timing(double value) {
    return new RequestTiming(
        Engine.VLLM,
        "a",
        TS,
        SOURCE,
        "cmpl-1-0",
        "1",
        TS,
        value,
        -value,
        value,
        value,
        value,
        0,
        1,
        2,
        null,
        "log",
        value);
  }
}
