package dev.tokentrace.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

final class SseParserTest {
  private final List<String> events = new ArrayList<>();
  private final List<Long> times = new ArrayList<>();
  private final SseParser parser =
      new SseParser(
          (data, readNanos) -> {
            events.add(data);
            times.add(readNanos);
          });

  private void feed(String text, long nanos) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    parser.feed(bytes, 0, bytes.length, nanos);
  }

  @Test
  void dispatchesEachEventAtItsBlankLine() {
    feed("data: {\"a\":1}\n\ndata: [DONE]\n\n", 7);

    assertThat(events).containsExactly("{\"a\":1}", "[DONE]");
    assertThat(times).containsExactly(7L, 7L);
  }

  @Test
  void ignoresCommentLinesAndHeartbeats() {
    feed(": ping\n\n:\n\n: keep-alive\ndata: x\n\n", 1);

    assertThat(events).containsExactly("x");
  }

  @Test
  void blankLinesWithoutDataDispatchNothing() {
    feed("\n\n\r\n\n", 1);

    assertThat(events).isEmpty();
  }

  @Test
  void ignoresOtherFields() {
    feed("event: message\nid: 3\nretry: 100\ndata: y\n\n", 1);

    assertThat(events).containsExactly("y");
  }

  @Test
  void joinsDataLinesOfOneEventWithLineFeeds() {
    feed("data: first\ndata: second\ndata\n\n", 1);

    assertThat(events).containsExactly("first\nsecond\n");
  }

  @Test
  void keepsTheValueWhenNoSpaceFollowsTheColon() {
    feed("data:tight\n\n", 1);

    assertThat(events).containsExactly("tight");
  }

  @Test
  void handlesAnEventSplitAcrossReadsByteByByte() {
    byte[] bytes = "data: {\"text\":\"é\"}\r\n\r\n".getBytes(StandardCharsets.UTF_8);
    for (int i = 0; i < bytes.length; i++) {
      parser.feed(bytes, i, 1, i);
    }

    assertThat(events).containsExactly("{\"text\":\"é\"}");
    // the blank line ends at its CR, one byte before the last LF
    assertThat(times).containsExactly((long) bytes.length - 2);
  }

  @Test
  void treatsCrLfSplitAcrossReadsAsOneLineEnd() {
    feed("data: a\r", 1);
    feed("\n\r", 2);
    feed("\n", 3);

    assertThat(events).containsExactly("a");
    assertThat(times).containsExactly(2L);
  }

  @Test
  void acceptsBareCarriageReturnsAsLineEnds() {
    feed("data: a\r\rdata: b\r\r", 1);

    assertThat(events).containsExactly("a", "b");
  }

  @Test
  void dropsAnUnterminatedLastEvent() {
    feed("data: whole\n\ndata: cut", 1);
    parser.end();

    assertThat(events).containsExactly("whole");
  }
}
