package dev.tokentrace.ingest.tail;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.ServerNotice;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.ingest.TinyParser;
import dev.tokentrace.parse.LineParser;
import dev.tokentrace.parse.LineSplitter;
import dev.tokentrace.parse.ParseOutput;
import dev.tokentrace.parse.Rejection;
import org.junit.jupiter.api.Test;

final class SourceParserTest {
  private final CollectingSink sink = new CollectingSink();
  private final SourceParser source =
      new SourceParser("logs/a.log", Engine.SGLANG, new TinyParser(Engine.SGLANG, "sg-0"), sink);

  @Test
  void countsEventsIgnoredLinesAndRejections() {
    source.line("A r1", 1, 0);
    source.line("# banner", 2, 5);
    source.line("garbage", 3, 14);
    source.invalid(4, 22, "invalid utf-8 at byte 1", new byte[] {(byte) 0xff});
    source.finish();

    assertThat(source.counts()).isEqualTo(new ParseCounts(4, 1, 1, 2, 1));
    assertThat(source.counts().summary()).isEqualTo("parsed=1 ignored=1 rejected=2 events=1");
    assertThat(sink.rejectionMessages())
        .containsExactly(
            "logs/a.log:3: sglang: unrecognized line @14",
            "logs/a.log:4: sglang: invalid utf-8 at byte 1 @22");
  }

  @Test
  void passesTheWholeRawLineOfAParserRejectionNotJustTheExcerpt() {
    String line = "z".repeat(2_000);

    source.line(line, 7, 100);

    assertThat(sink.rejections.get(0).excerpt()).hasSize(Rejection.MAX_EXCERPT);
    assertThat(sink.raws.get(0)).isEqualTo(line.getBytes(UTF_8));
  }

  @Test
  void capsTheRawLineOfAParserRejection() {
    source.line("q".repeat(LineSplitter.MAX_RAW_BYTES + 10), 1, 0);

    assertThat(sink.raws.get(0)).hasSize(LineSplitter.MAX_RAW_BYTES);
  }

  @Test
  void usesTheExcerptAsRawWhenTheParserRejectsAnEarlierLine() {
    LineParser grouping =
        new LineParser() {
          private SourcePosition first;

          @Override
          public void parse(String line, SourcePosition position, ParseOutput parseSink) {
            if (first == null) {
              first = position;
            } else {
              parseSink.rejected(Rejection.of(first, Engine.VLLM, "dangling record", "held text"));
            }
          }
        };
    SourceParser grouped = new SourceParser("b.log", Engine.VLLM, grouping, sink);

    grouped.line("first", 1, 0);
    grouped.line("second", 2, 6);

    assertThat(sink.raws.get(0)).isEqualTo("held text".getBytes(UTF_8));
  }

  @Test
  void neverPassesPromptTextOfARejectedRequestLineToTheRejectsTopic() {
    String line = "[2026-03-02 09:00:00] Receive: obj=GenerateReqInput(rid='r1', text='my secret";

    source.line(line, 3, 40);
    source.invalid(4, 90, "invalid utf-8 at byte 70", (line + "\u00ff").getBytes(UTF_8));

    assertThat(sink.rejections)
        .extracting(Rejection::excerpt)
        .allSatisfy(excerpt -> assertThat(excerpt).doesNotContain("secret"));
    assertThat(sink.raws)
        .allSatisfy(
            raw ->
                assertThat(new String(raw, UTF_8))
                    .doesNotContain("secret")
                    .contains("text=<redacted "));
  }

  /**
   * Each line is counted once (docs/design.md#bad-input): a line with several events is one parsed
   * line, a line with an event and a rejection is parsed, a grouped record's line reported after
   * later lines still counts once, and events are counted apart.
   */
  @Test
  void countsEachLineOnceWhateverItGave() {
    LineParser parser =
        new LineParser() {
          private SourcePosition open;

          @Override
          public void parse(String line, SourcePosition position, ParseOutput out) {
            if (line.equals("three")) {
              for (int i = 0; i < 3; i++) {
                out.event(notice(position));
              }
            } else if (line.equals("both")) {
              out.event(notice(position));
              out.rejected(Rejection.of(position, Engine.SGLANG, "half bad", line));
            } else if (line.equals("group")) {
              open = position;
            } else if (line.equals("  more")) {
              out.ignored(position, "continuation");
            } else {
              if (open != null) {
                out.event(notice(open));
                open = null;
              }
              out.rejected(Rejection.of(position, Engine.SGLANG, "bad", line));
            }
          }
        };
    SourceParser counted = new SourceParser("logs/b.log", Engine.SGLANG, parser, sink);
    String[] lines = {"three", "both", "group", "  more", "junk"};
    for (int i = 0; i < lines.length; i++) {
      counted.line(lines[i], i + 1, 0);
    }
    counted.finish();

    assertThat(counted.counts()).isEqualTo(new ParseCounts(5, 3, 1, 1, 5));
    ParseCounts counts = counted.counts();
    assertThat(counts.parsed() + counts.ignored() + counts.rejected()).isEqualTo(counts.lines());
  }

  private static ServerNotice notice(SourcePosition position) {
    return new ServerNotice(
        Engine.SGLANG, "sg-0", null, position, "INFO", ServerNotice.Kind.STARTUP, "x");
  }
}
