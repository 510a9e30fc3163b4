package dev.tokentrace.ingest.tail;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tokentrace.event.Engine;
import dev.tokentrace.ingest.TinyParser;
import dev.tokentrace.parse.LineSplitter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading real files through {@link SourceParser} and {@link LogFileReader}. */
final class LogFileReaderTest {
  @TempDir Path dir;

  private final CollectingSink sink = new CollectingSink();

  @Test
  void readsATruncatedLastLineAsALineInBatchMode() throws IOException {
    Path file = write("server.log", bytes("A r1\nA r2"));

    ParseCounts counts = parse(file);

    assertThat(sink.eventPositions()).containsExactly("1@0", "2@5");
    assertThat(counts).isEqualTo(new ParseCounts(2, 2, 0, 0, 2));
  }

  @Test
  void rejectsInvalidUtf8AndKeepsReading() throws IOException {
    byte[] bad = {'A', ' ', 'r', (byte) 0xc3, '(', '\n'};
    Path file = write("server.log", concat(bytes("A r1\n"), bad, bytes("A r2\n")));

    ParseCounts counts = parse(file);

    assertThat(sink.eventPositions()).containsExactly("1@0", "3@11");
    String path = file.toString();
    assertThat(sink.rejectionMessages())
        .containsExactly(path + ":2: vllm: invalid utf-8 at byte 4 @5");
    assertThat(sink.raws.get(0)).containsExactly(Arrays.copyOf(bad, 5));
    assertThat(sink.rejections.get(0).excerpt()).isEqualTo("A r\uFFFD(");
    assertThat(counts.summary()).isEqualTo("parsed=2 ignored=0 rejected=1 events=2");
  }

  @Test
  void rejectsATenMegabyteLineAndReadsTheFollowingLinesWithCorrectPositions() throws IOException {
    byte[] huge = new byte[10 * 1024 * 1024];
    Arrays.fill(huge, (byte) 'x');
    Path file = write("server.log", concat(bytes("A r1\n"), huge, bytes("\nA r2\r\nA r3\n")));

    ParseCounts counts = parse(file);

    long afterHuge = 5 + huge.length + 1;
    assertThat(sink.eventPositions())
        .containsExactly("1@0", "3@" + afterHuge, "4@" + (afterHuge + 6));
    assertThat(sink.rejectionMessages())
        .containsExactly(file + ":2: vllm: line too long (10485760 bytes > 8388608) @5");
    assertThat(sink.raws.get(0)).hasSize(LineSplitter.MAX_RAW_BYTES);
    assertThat(counts).isEqualTo(new ParseCounts(4, 3, 0, 1, 3));
  }

  @Test
  void rejectsLinesWithNulBytesAsBinaryData() throws IOException {
    Path file =
        write(
            "server.log", concat(bytes("A r1\n"), new byte[] {0, 0, 7, 0, '\n'}, bytes("A r2\n")));

    parse(file);

    assertThat(sink.eventPositions()).containsExactly("1@0", "3@10");
    assertThat(sink.rejectionMessages())
        .containsExactly(file + ":2: vllm: binary data (nul byte at byte 1) @5");
    assertThat(sink.rejections.get(0).excerpt()).isEqualTo("\uFFFD\uFFFD\u0007\uFFFD");
  }

  @Test
  void readsGzipFilesWithOffsetsInTheDecompressedText() throws IOException {
    Path file = write("server.log.1.gz", gzip(bytes("A r1\r\n# banner\nA r2\nA r3")));

    ParseCounts counts = parse(file);

    assertThat(sink.eventPositions()).containsExactly("1@0", "3@15", "4@20");
    assertThat(counts).isEqualTo(new ParseCounts(4, 3, 1, 0, 3));
  }

  @Test
  void recognizesGzipByItsContentNotItsName() throws IOException {
    Path file = write("rotated-without-suffix", gzip(bytes("A r1\n")));

    parse(file);

    assertThat(sink.eventPositions()).containsExactly("1@0");
  }

  @Test
  void endsATruncatedGzipFileWithARejection() throws IOException {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < 5_000; i++) {
      text.append("A request-").append(i).append('\n');
    }
    byte[] compressed = gzip(bytes(text.toString()));
    Path file = write("cut.log.gz", Arrays.copyOf(compressed, compressed.length / 2));

    ParseCounts counts = parse(file);

    assertThat(counts.events()).isBetween(1L, 4_999L);
    assertThat(counts.rejected()).isEqualTo(1);
    assertThat(sink.rejections.get(0).reason()).isEqualTo(LogFileReader.CORRUPT_GZIP);
    assertThat(sink.rejections.get(0).position().line()).isEqualTo(counts.events() + 1);
  }

  @Test
  void readsAnEmptyFileAsNoLines() throws IOException {
    Path file = write("empty.log", new byte[0]);

    assertThat(parse(file)).isEqualTo(ParseCounts.ZERO);
  }

  @Test
  void failsWithAnIoExceptionForAMissingFileOrADirectory() {
    Path missing = dir.resolve("missing.log");

    assertThatThrownBy(() -> parse(missing)).isInstanceOf(NoSuchFileException.class);
    assertThatThrownBy(() -> parse(dir))
        .isInstanceOfSatisfying(
            IOException.class,
            e -> assertThat(FileProblems.describe(e)).isEqualTo("is a directory"));
  }

  private ParseCounts parse(Path file) throws IOException {
    SourceParser source =
        new SourceParser(file.toString(), Engine.VLLM, new TinyParser(Engine.VLLM, "i"), sink);
    return source.readFile(file, LineSplitter.DEFAULT_MAX_LINE_BYTES);
  }

  private Path write(String name, byte[] content) throws IOException {
    return Files.write(dir.resolve(name), content);
  }

  private static byte[] bytes(String text) {
    return text.getBytes(UTF_8);
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream output = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      output.writeBytes(part);
    }
    return output.toByteArray();
  }

  private static byte[] gzip(byte[] content) throws IOException {
    ByteArrayOutputStream output = new ByteArrayOutputStream();
    try (OutputStream gzip = new GZIPOutputStream(output)) {
      gzip.write(content);
    }
    return output.toByteArray();
  }
}
