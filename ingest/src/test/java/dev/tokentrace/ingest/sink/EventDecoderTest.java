package dev.tokentrace.ingest.sink;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.json.EventJson;
import java.util.List;
import org.junit.jupiter.api.Test;

final class EventDecoderTest {
  private static final String STEP =
      "{\"type\":\"batch_step\",\"engine\":\"vllm\",\"instance\":\"default\","
          + "\"ts\":\"2026-02-24T09:00:00.000Z\","
          + "\"source\":{\"path\":\"logs/server.log\",\"line\":57,\"offset\":13213},"
          + "\"rank\":\"Engine 000\",\"iteration\":1,\"phase\":\"mixed\",\"batch_size\":16,"
          + "\"new_tokens\":7163,\"step_ms\":363.58,\"step_ms_derived\":false,"
          + "\"ctx_requests\":15,\"gen_requests\":1}";

  private final EventDecoder decoder = new EventDecoder();

  @Test
  void decodesWhatEventJsonWritesToTheEventEventJsonReads() {
    List<EngineEvent> events = TestEvents.mixed("logs/server.log", 350);
    int decoded = 0;
    for (EngineEvent event : events) {
      String json = EventJson.write(event);
      EngineEvent fast = decoder.decode(json.getBytes(UTF_8));
      if (fast != null) {
        decoded++;
        assertThat(fast).isEqualTo(event).isEqualTo(EventJson.read(json));
      }
    }
    // only the server notices, whose test message is not ASCII, are left to EventJson
    assertThat(decoded).isEqualTo(350 - 350 / TestEvents.TYPES);
  }

  @Test
  void takesFieldsInAnyOrderAndSkipsFieldsOfNoEventLikeEventJson() {
    String reordered =
        "{\"source\":{\"offset\":13213,\"extra\":[1,{\"a\":2}],\"line\":57,\"path\":\"logs/server.log\"},"
            + "\"step_ms_derived\":true,\"phase\":\"decode\",\"instance\":\"default\","
            + "\"unknown\":{\"nested\":[true,null]},\"engine\":\"sglang\",\"type\":\"batch_step\"}";

    for (String json : List.of(STEP, reordered)) {
      EngineEvent fast = decoder.decode(json.getBytes(UTF_8));
      assertThat(fast).isNotNull().isEqualTo(EventJson.read(json));
    }
  }

  @Test
  void leavesEveryOtherShapeToEventJson() {
    List<String> others =
        List.of(
            STEP.replace("logs/server.log", "logs/sérveur.log"), // not ASCII
            STEP.replace("\"rank\":\"Engine 000\"", "\"rank\":null"), // explicit null
            STEP.replace("\"batch_size\":16", "\"batch_size\":16,\"batch_size\":17"), // repeated
            STEP.replace("\"step_ms\":363.58", "\"step_ms\":363"), // integer for a double
            STEP.replace("\"batch_size\":16", "\"batch_size\":\"16\""), // text for a number
            STEP.replace("\"iteration\":1", "\"iteration\":1.0"), // double for an integer
            STEP.replace("\"batch_size\":16", "\"batch_size\":3000000000"), // beyond int
            STEP.replace(",\"step_ms_derived\":false", ""), // missing primitive
            STEP.replace(",\"line\":57", ""), // missing primitive in source
            STEP.replace(".000Z", "Z"), // another timestamp shape
            STEP.replace("batch_step", "batch_steps"), // unknown type
            STEP.replace("\"type\":\"batch_step\",", ""), // no type
            STEP + " {}", // trailing content
            STEP.replace("\"batch_size\":16", "\"batch_size\":-1"), // fails the event's check
            STEP.replace("\"line\":57", "\"line\":0"), // fails the source's check
            STEP.replace("\"engine\":\"vllm\"", "\"engine\":\"tgi\""), // unknown engine
            "[" + STEP + "]",
            "{\"type\":\"nope\"}",
            "",
            "{");
    for (String json : others) {
      assertThat(decoder.decode(json.getBytes(UTF_8))).as(json).isNull();
    }
  }

  @Test
  void leavesInputEventJsonAcceptsDifferentlyToIt() {
    // Both are events for EventJson (it converts and trims), but not in the written shape.
    String trimmedEngine = STEP.replace("\"engine\":\"vllm\"", "\"engine\":\" VLLM \"");
    String intForDouble = STEP.replace("\"step_ms\":363.58", "\"step_ms\":363");

    assertThat(decoder.decode(intForDouble.getBytes(UTF_8))).isNull();
    assertThat(EventJson.read(intForDouble)).isNotNull();
    assertThat(decoder.decode(trimmedEngine.getBytes(UTF_8)))
        .isEqualTo(EventJson.read(trimmedEngine));
    assertThatThrownBy(() -> EventJson.read("{\"type\":\"nope\"}"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
