package dev.tokentrace.ingest.tail;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.RequestArrived;
import dev.tokentrace.event.ServerNotice;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.parse.LineParser;
import dev.tokentrace.parse.ParseOutput;
import dev.tokentrace.parse.Rejection;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

final class ReleaseGateTest {
  private final CollectingSink downstream = new CollectingSink();
  private final ReleaseGate gate = new ReleaseGate(downstream, ParseCounts.ZERO);
  private final SourceParser parser =
      new SourceParser("server.log", Engine.VLLM, new GroupingParser(), gate);
  private long offset;

  @Test
  void linesReportedWhileTheyAreParsedPassStraightThrough() {
    assertThat(line(1, "A r1")).isTrue();
    assertThat(line(2, "A r2")).isTrue();

    assertThat(downstream.eventPositions()).containsExactly("1@0", "2@5");
    assertThat(gate.released()).isEqualTo(new ParseCounts(2, 2, 0, 0, 2));
    assertThat(gate.pendingLines()).isZero();
  }

  @Test
  void aGroupedRecordHoldsBackEverythingAfterItUntilTheParserReportsIt() {
    line(1, "A r1");

    assertThat(line(2, "G warning")).isFalse();
    assertThat(line(3, "  continued")).isFalse();
    assertThat(gate.oldestPending()).isEqualTo(2);
    assertThat(downstream.events).hasSize(1);
    assertThat(gate.released()).isEqualTo(new ParseCounts(1, 1, 0, 0, 1));

    assertThat(line(4, "A r2")).isTrue();
    assertThat(downstream.events)
        .extracting(event -> event.source().line())
        .containsExactly(1L, 2L, 4L);
    assertThat(downstream.events.get(1)).isInstanceOf(ServerNotice.class);
    assertThat(gate.released()).isEqualTo(new ParseCounts(4, 3, 1, 0, 3));
  }

  @Test
  void eventsOfLaterLinesWaitBehindAnOpenGroup() {
    line(1, "G warning");
    line(2, "B r1"); // a request the parser reports at once, without closing the group

    assertThat(downstream.events).isEmpty();
    assertThat(gate.held()).isEqualTo(1);

    line(3, "A r2");
    assertThat(downstream.events)
        .extracting(event -> event.source().line())
        .containsExactly(2L, 1L, 3L);
  }

  @Test
  void finishingTheParserReleasesAPendingGroup() {
    line(1, "G warning");

    parser.finish();
    gate.finished();

    assertThat(downstream.events).hasSize(1);
    assertThat(gate.pendingLines()).isZero();
    assertThat(gate.released()).isEqualTo(new ParseCounts(1, 1, 0, 0, 1));
  }

  @Test
  void rejectionsAreHeldAndReleasedLikeEvents() {
    line(1, "G warning");
    line(2, "X junk");

    assertThat(downstream.rejections).isEmpty();
    line(3, "A r1");
    assertThat(downstream.rejections).hasSize(1);
    assertThat(gate.released()).isEqualTo(new ParseCounts(3, 2, 0, 1, 2));
  }

  @Test
  void startsFromTheCountsOfAResumedSource() {
    ReleaseGate resumed = new ReleaseGate(downstream, new ParseCounts(10, 8, 1, 1, 8));
    resumed.beginLine(11);
    resumed.ignored(new SourcePosition("server.log", 11, 0), "banner");
    resumed.endLine();

    assertThat(resumed.released()).isEqualTo(new ParseCounts(11, 8, 2, 1, 8));
  }

  private boolean line(long number, String text) {
    gate.beginLine(number);
    parser.line(text, number, offset);
    offset += text.length() + 1;
    return gate.endLine();
  }

  /**
   * {@code A id} is a request; {@code B id} a request reported at once even inside a group; {@code
   * G text} opens a warning that continues with indented lines and is emitted when the next record
   * starts (as vLLM's tracebacks); {@code garbage} is rejected.
   */
  private static final class GroupingParser implements LineParser {
    private @Nullable SourcePosition open;

    @Override
    public void parse(String line, SourcePosition position, ParseOutput sink) {
      if (line.startsWith("  ")) {
        sink.ignored(position, "continuation");
        return;
      }
      if (line.startsWith("B ")) {
        sink.event(request(line, position));
        return;
      }
      if (line.startsWith("X ")) {
        sink.rejected(Rejection.of(position, Engine.VLLM, "bad", line));
        return;
      }
      finish(sink);
      if (line.startsWith("G ")) {
        open = position;
      } else if (line.startsWith("A ")) {
        sink.event(request(line, position));
      } else {
        sink.rejected(Rejection.of(position, Engine.VLLM, "bad", line));
      }
    }

    @Override
    public void finish(ParseOutput sink) {
      SourcePosition group = open;
      if (group != null) {
        sink.event(
            new ServerNotice(
                Engine.VLLM, "i", null, group, "WARNING", ServerNotice.Kind.WARNING, "w"));
        open = null;
      }
    }

    private static RequestArrived request(String line, SourcePosition position) {
      String id = line.substring(2);
      return new RequestArrived(Engine.VLLM, "i", null, position, id, id, null, null);
    }
  }
}
