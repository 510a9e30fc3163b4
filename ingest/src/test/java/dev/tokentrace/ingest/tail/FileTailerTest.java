package dev.tokentrace.ingest.tail;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class FileTailerTest {
  @TempDir Path dir;

  private final byte[] buffer = new byte[64];

  @Test
  void readsWhatIsThereNowAndThenWhatIsAppended() throws IOException {
    Path file = write("server.log", "one\n");
    try (FileTailer tailer = FileTailer.open(file, 0)) {
      assertThat(read(tailer)).isEqualTo("one\n");
      assertThat(tailer.read(buffer)).isEqualTo(-1);

      append(file, "two\n");
      assertThat(tailer.remaining()).isEqualTo(4);
      assertThat(read(tailer)).isEqualTo("two\n");
      assertThat(tailer.position()).isEqualTo(8);
    }
  }

  @Test
  void keepsReadingAFileRenamedAwayUnderItsOwnIdentity() throws IOException {
    Path file = write("server.log", "one\n");
    try (FileTailer tailer = FileTailer.open(file, 4)) {
      Path rotated = Files.move(file, dir.resolve("server.log.1"));
      append(rotated, "two\n");
      write("server.log", "new\n");

      assertThat(read(tailer)).isEqualTo("two\n");
      assertThat(FileIdentity.of(rotated)).isEqualTo(tailer.identity());
      assertThat(FileIdentity.of(file)).isNotEqualTo(tailer.identity());
    }
  }

  @Test
  void seesATruncationBelowItsOffset() throws IOException {
    Path file = write("server.log", "one\ntwo\n");
    try (FileTailer tailer = FileTailer.open(file, 0)) {
      read(tailer);
      Files.write(file, "x\n".getBytes(UTF_8), StandardOpenOption.TRUNCATE_EXISTING);

      assertThat(tailer.truncated()).isTrue();
      tailer.seek(0);
      assertThat(tailer.truncated()).isFalse();
      assertThat(read(tailer)).isEqualTo("x\n");
    }
  }

  @Test
  void seesATruncationRewrittenPastItsOffsetByItsFirstBytes() throws IOException {
    Path file = write("server.log", "INFO 10:00:00 first\n");
    try (FileTailer tailer = FileTailer.open(file, 0)) {
      read(tailer);
      Files.write(
          file,
          "INFO 10:05:00 other and longer\n".getBytes(UTF_8),
          StandardOpenOption.TRUNCATE_EXISTING);

      assertThat(tailer.truncated()).isTrue();
    }
  }

  @Test
  void readsAGzipFileDecompressedAndSeeksWithinIt() throws IOException {
    Path file = dir.resolve("server.log.1.gz");
    try (OutputStream gzip = new GZIPOutputStream(Files.newOutputStream(file))) {
      gzip.write("one\ntwo\nthree\n".getBytes(UTF_8));
    }
    try (FileTailer tailer = FileTailer.open(file, 4)) {
      assertThat(tailer.gzip()).isTrue();
      assertThat(read(tailer)).isEqualTo("two\nthree\n");
      assertThat(tailer.read(buffer)).isEqualTo(-1);
      assertThat(tailer.truncated()).isFalse();
      tailer.seek(8);
      assertThat(read(tailer)).isEqualTo("three\n");
    }
  }

  @Test
  void refusesADirectoryWithAClearReason() throws IOException {
    Path directory = Files.createDirectory(dir.resolve("logs"));

    assertThatThrownBy(() -> FileTailer.open(directory, 0))
        .isInstanceOf(FileIdentity.NotRegularFileException.class)
        .hasMessage("is a directory, not a file");
  }

  private String read(FileTailer tailer) throws IOException {
    StringBuilder text = new StringBuilder();
    for (int count = tailer.read(buffer); count > 0; count = tailer.read(buffer)) {
      text.append(new String(Arrays.copyOf(buffer, count), UTF_8));
    }
    return text.toString();
  }

  private Path write(String name, String text) throws IOException {
    return Files.writeString(dir.resolve(name), text);
  }

  private static void append(Path file, String text) throws IOException {
    Files.writeString(file, text, StandardOpenOption.APPEND);
  }
}
