package dev.tokentrace.ingest.follow;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.event.Engine;
import dev.tokentrace.parse.ParseSettings;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;

final class HeadLinesTest {
  private static final ParseSettings SETTINGS = ParseSettings.of("vllm-0", 2026);

  private final HeadLines head = new HeadLines();
  private long number;

  @Test
  void waitsUntilTheBestEngineHasEnoughEvents() {
    add(VllmLines.request("r", 1));
    assertThat(head.detect(SETTINGS, false)).isEqualTo(HeadLines.Choice.WAIT);

    add(VllmLines.request("r", 2));
    add(VllmLines.request("r", 3));
    assertThat(head.detect(SETTINGS, false).engine()).isEqualTo(Engine.VLLM);
  }

  @Test
  void decidesWithFewLinesWhenItMustAndFailsOnlyWhenTheHeadIsFull() {
    add(VllmLines.request("r", 1));
    assertThat(head.detect(SETTINGS, true).engine()).isEqualTo(Engine.VLLM);

    HeadLines junk = new HeadLines();
    junk.line("hello", 1, 0);
    assertThat(junk.detect(SETTINGS, true)).isEqualTo(HeadLines.Choice.WAIT);
    for (int line = 2; line <= HeadLines.MAX_LINES; line++) {
      junk.line("hello", line, 0);
    }
    assertThat(junk.detect(SETTINGS, false).failure())
        .startsWith("no known engine format in its first 400 lines (tried vllm: ")
        .endsWith("; give --engine if you know it");
  }

  @Test
  void takesTheYearFromTheModificationDateAndTheFirstTimestamp() {
    add(VllmLines.request("r", 1)); // logged on 03-02

    assertThat(head.startYear(LocalDate.of(2026, 3, 5))).isEqualTo(2026);
    assertThat(head.startYear(LocalDate.of(2026, 1, 2))).as("began last year").isEqualTo(2025);
  }

  @Test
  void replaysEveryHeldLineInOrder() {
    add("first");
    head.invalid(2, 6, "binary data (nul byte at byte 1)", new byte[] {0});
    StringBuilder seen = new StringBuilder();
    head.replay(
        new dev.tokentrace.parse.LineSplitter.Receiver() {
          @Override
          public void line(String text, long line, long offset) {
            seen.append(line).append(':').append(text).append(' ');
          }

          @Override
          public void invalid(long line, long offset, String reason, byte[] raw) {
            seen.append(line).append('!').append(reason);
          }
        });

    assertThat(seen).hasToString("1:first 2!binary data (nul byte at byte 1)");
    assertThat(head.size()).isZero();
  }

  private void add(String line) {
    head.line(line.strip(), ++number, 0);
  }
}
