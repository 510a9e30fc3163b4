package dev.tokentrace.ingest.tail;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tokentrace.parse.LineSplitter;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

final class LineSplitterTest {
  private static final int MAX = 16;

  /** Input (Latin-1 escapes for raw bytes) → lines as {@code number@offset:text} in batch mode. */
  static Stream<Arguments> batchInputs() {
    return Stream.of(
        Arguments.of("empty input", "", List.of()),
        Arguments.of("one line", "a\n", List.of("1@0:a")),
        Arguments.of("lf", "ab\ncd\n", List.of("1@0:ab", "2@3:cd")),
        Arguments.of("crlf", "ab\r\ncd\r\n", List.of("1@0:ab", "2@4:cd")),
        Arguments.of("mixed endings", "a\r\nb\nc\r\n", List.of("1@0:a", "2@3:b", "3@5:c")),
        Arguments.of("last line without newline", "ab\ncd", List.of("1@0:ab", "2@3:cd")),
        Arguments.of("trailing cr at end of input", "ab\ncd\r", List.of("1@0:ab", "2@3:cd")),
        Arguments.of("lone cr inside a line is kept", "a\rb\n", List.of("1@0:a\rb")),
        Arguments.of("cr cr lf keeps one cr", "a\r\r\n", List.of("1@0:a\r")),
        Arguments.of("empty lines", "\n\na\n\n", List.of("1@0:", "2@1:", "3@2:a", "4@4:")),
        Arguments.of("only crlf", "\r\n", List.of("1@0:")),
        Arguments.of("only cr", "\r", List.of("1@0:")),
        Arguments.of(
            "utf-8 offsets count bytes",
            new String("é\nx\n".getBytes(UTF_8), ISO_8859_1),
            List.of("1@0:é", "2@3:x")),
        Arguments.of(
            "line of exactly max bytes",
            "0123456789abcdef\nz\n",
            List.of("1@0:0123456789abcdef", "2@17:z")),
        Arguments.of(
            "max bytes plus crlf is not too long",
            "0123456789abcdef\r\nz\n",
            List.of("1@0:0123456789abcdef", "2@18:z")),
        Arguments.of(
            "one byte over max",
            "0123456789abcdefg\nz\n",
            List.of("1@0!line too long (17 bytes > 16)", "2@18:z")),
        Arguments.of(
            "overlong last line without newline",
            "a\n0123456789abcdefghij",
            List.of("1@0:a", "2@2!line too long (20 bytes > 16)")),
        Arguments.of(
            "invalid utf-8",
            "ok\nab\u00ff\ncd\n",
            List.of("1@0:ok", "2@3!invalid utf-8 at byte 3", "3@7:cd")),
        Arguments.of(
            "truncated multi-byte sequence at end of line",
            "ab\u00c3\n",
            List.of("1@0!invalid utf-8 at byte 3")),
        Arguments.of(
            "overlong utf-8 encoding is invalid",
            "\u00c0\u00af\n",
            List.of("1@0!invalid utf-8 at byte 1")),
        Arguments.of(
            "nul byte is binary data",
            "a\u0000b\nc\n",
            List.of("1@0!binary data (nul byte at byte 2)", "2@4:c")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("batchInputs")
  void splitsWholeInputInOneChunk(String name, String input, List<String> expected) {
    assertThat(splitInChunks(input.getBytes(ISO_8859_1), Integer.MAX_VALUE)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("batchInputs")
  void splitsTheSameWayWhenFedOneByteAtATime(String name, String input, List<String> expected) {
    assertThat(splitInChunks(input.getBytes(ISO_8859_1), 1)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("batchInputs")
  void splitsTheSameWayInChunksOfThree(String name, String input, List<String> expected) {
    assertThat(splitInChunks(input.getBytes(ISO_8859_1), 3)).isEqualTo(expected);
  }

  @Test
  void holdsPartialLastLineUntilItsNewlineArrives() {
    LineSplitter splitter = new LineSplitter(MAX);
    RecordingReceiver receiver = new RecordingReceiver();

    feed(splitter, "one\ntw", receiver);
    assertThat(receiver.outcomes).containsExactly("1@0:one");
    assertThat(splitter.nextOffset()).isEqualTo(4);
    assertThat(splitter.nextLineNumber()).isEqualTo(2);
    assertThat(splitter.pendingBytes()).isEqualTo(2);

    feed(splitter, "o\r", receiver);
    assertThat(receiver.outcomes).containsExactly("1@0:one");

    feed(splitter, "\nthree\n", receiver);
    assertThat(receiver.outcomes).containsExactly("1@0:one", "2@4:two", "3@9:three");
    assertThat(splitter.nextOffset()).isEqualTo(15);
    assertThat(splitter.nextLineNumber()).isEqualTo(4);
    assertThat(splitter.pendingBytes()).isZero();
  }

  @Test
  void resumesAtACheckpointWithItsOffsetAndLineNumber() {
    LineSplitter splitter = new LineSplitter(MAX, 1000, 42);
    RecordingReceiver receiver = new RecordingReceiver();

    feed(splitter, "x\ny\n", receiver);

    assertThat(receiver.outcomes).containsExactly("42@1000:x", "43@1002:y");
  }

  @Test
  void keepsOnlyTheFirstBytesOfAnOverlongLine() {
    LineSplitter splitter = new LineSplitter(MAX);
    RecordingReceiver receiver = new RecordingReceiver();
    byte[] longLine = new byte[LineSplitter.MAX_RAW_BYTES * 3];
    Arrays.fill(longLine, (byte) 'x');

    for (int i = 0; i < longLine.length; i += 1000) {
      splitter.feed(longLine, i, Math.min(1000, longLine.length - i), receiver);
    }
    feed(splitter, "\nok\n", receiver);

    assertThat(receiver.outcomes)
        .containsExactly(
            "1@0!line too long (" + longLine.length + " bytes > 16)",
            "2@" + (longLine.length + 1) + ":ok");
    assertThat(receiver.raws.get(0)).hasSize(LineSplitter.MAX_RAW_BYTES);
  }

  @Test
  void passesTheRawBytesOfAnInvalidLine() {
    RecordingReceiver receiver = new RecordingReceiver();
    LineSplitter splitter = new LineSplitter(MAX);

    splitter.feed(new byte[] {'a', (byte) 0xff, 'b', '\r', '\n'}, 0, 5, receiver);

    assertThat(receiver.raws.get(0)).containsExactly('a', (byte) 0xff, 'b');
  }

  @Test
  void rejectsTheHeldPartialLineWhenTheInputBreaksOff() {
    LineSplitter splitter = new LineSplitter(MAX);
    RecordingReceiver receiver = new RecordingReceiver();

    feed(splitter, "a\nbro", receiver);
    splitter.finishBroken(receiver, "corrupt gzip stream");

    assertThat(receiver.outcomes).containsExactly("1@0:a", "2@2!corrupt gzip stream");
    assertThat(RecordingReceiver.text(receiver.raws.get(0))).isEqualTo("bro");
  }

  @Test
  void rejectsBadArguments() {
    assertThatThrownBy(() -> new LineSplitter(0)).hasMessage("maxLineBytes must be >= 1: 0");
    assertThatThrownBy(() -> new LineSplitter(1, -1, 1)).hasMessage("offset must be >= 0: -1");
    assertThatThrownBy(() -> new LineSplitter(1, 0, 0)).hasMessage("lineNumber must be >= 1: 0");
  }

  private static List<String> splitInChunks(byte[] input, int chunk) {
    LineSplitter splitter = new LineSplitter(MAX);
    RecordingReceiver receiver = new RecordingReceiver();
    for (int i = 0; i < input.length; i += chunk) {
      splitter.feed(input, i, Math.min(chunk, input.length - i), receiver);
    }
    splitter.finish(receiver);
    return receiver.outcomes;
  }

  private static void feed(LineSplitter splitter, String text, RecordingReceiver receiver) {
    byte[] bytes = text.getBytes(UTF_8);
    splitter.feed(bytes, 0, bytes.length, receiver);
  }
}
