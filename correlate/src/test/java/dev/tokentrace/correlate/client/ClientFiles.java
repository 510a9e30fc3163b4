package dev.tokentrace.correlate.client;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes client files for reader tests and reads them back. */
final class ClientFiles {
  private ClientFiles() {}

  static Path write(Path dir, String name, String content) throws IOException {
    Path file = dir.resolve(name);
    Files.writeString(file, content, StandardCharsets.UTF_8);
    return file;
  }

  static CollectingSink read(ClientTimingReader reader, Path file) {
    CollectingSink sink = new CollectingSink();
    reader.read(file, sink);
    return sink;
  }

  static FileHead head(String text) {
    return FileHead.of(text.getBytes(StandardCharsets.UTF_8));
  }
}
