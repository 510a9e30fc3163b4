package dev.tokentrace.parse;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.parse.LineSplitter.Line;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link LineSplitter#lines}: the pull-style reading the client timing readers use (it replaced
 * their own {@code Utf8Lines}); the cases that class covered, with the same results: CRLF, a last
 * line without newline, invalid UTF-8 flagged with a lenient text, an overlong line flagged without
 * being held, a NUL byte passed on as text, numbers and byte offsets.
 */
final class LineSplitterLinesTest {
  @Test
  void splitsOnNewlineDropsCarriageReturnsAndKeepsALastLineWithoutNewline() throws IOException {
    assertThat(read("a,b\r\nc\n\nd\r", 100))
        .containsExactly(
            new Line(1, 0, "a,b", false, false),
            new Line(2, 5, "c", false, false),
            new Line(3, 7, "", false, false),
            new Line(4, 8, "d", false, false));
  }

  @Test
  void invalidUtf8IsFlaggedWithALenientText() throws IOException {
    byte[] bytes = {'o', 'k', '\n', 'x', (byte) 0xff, 'y', '\n', 'z', '\n'};
    assertThat(read(bytes, 100))
        .containsExactly(
            new Line(1, 0, "ok", false, false),
            new Line(2, 3, "x\uFFFDy", true, false),
            new Line(3, 7, "z", false, false));
  }

  @Test
  void anOverlongLineIsFlaggedAndTheNextLineIsIntact() throws IOException {
    List<Line> lines = read("x".repeat(5000) + "\nshort\n", 100);
    assertThat(lines).hasSize(2);
    assertThat(lines.get(0).tooLong()).isTrue();
    assertThat(lines.get(0).invalidUtf8()).isFalse();
    assertThat(lines.get(1)).isEqualTo(new Line(2, 5001, "short", false, false));
  }

  @Test
  void aNulByteInAClientLineIsText() throws IOException {
    assertThat(read("a\0b\n", 100)).containsExactly(new Line(1, 0, "a\0b", false, false));
  }

  @Test
  void linesSpanningReadsOfAnySizeComeOutWhole() throws IOException {
    String text = ("0123456789".repeat(10_000) + "\n").repeat(3);
    List<Line> lines = new ArrayList<>();
    LineSplitter.Lines reader =
        LineSplitter.lines(new TrickleInputStream(text.getBytes(UTF_8)), 1 << 20);
    for (Line line = reader.next(); line != null; line = reader.next()) {
      lines.add(line);
    }
    assertThat(lines).hasSize(3).allSatisfy(line -> assertThat(line.text()).hasSize(100_000));
  }

  @Test
  void anEmptyStreamHasNoLines() throws IOException {
    assertThat(read("", 100)).isEmpty();
  }

  private static List<Line> read(String text, int maxLineBytes) throws IOException {
    return read(text.getBytes(UTF_8), maxLineBytes);
  }

  private static List<Line> read(byte[] bytes, int maxLineBytes) throws IOException {
    List<Line> lines = new ArrayList<>();
    LineSplitter.Lines reader = LineSplitter.lines(new ByteArrayInputStream(bytes), maxLineBytes);
    for (Line line = reader.next(); line != null; line = reader.next()) {
      lines.add(line);
    }
    return lines;
  }

  /** Returns at most 777 bytes a read, so lines cross reads. */
  private static final class TrickleInputStream extends InputStream {
    private final ByteArrayInputStream in;

    TrickleInputStream(byte[] bytes) {
      this.in = new ByteArrayInputStream(bytes);
    }

    @Override
    public int read() {
      return in.read();
    }

    @Override
    public int read(byte[] buffer, int offset, int length) {
      return in.read(buffer, offset, Math.min(length, 777));
    }
  }
}
