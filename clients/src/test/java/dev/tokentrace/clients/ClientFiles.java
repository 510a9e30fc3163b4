package dev.tokentrace.clients;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes client files for reader tests and reads them back. */
public final class ClientFiles {
  private ClientFiles() {}

  public static Path write(Path dir, String name, String content) throws IOException {
    Path file = dir.resolve(name);
    Files.writeString(file, content, StandardCharsets.UTF_8);
    return file;
  }

  public static CollectingSink read(ClientTimingReader reader, Path file) {
    CollectingSink sink = new CollectingSink();
    reader.read(file, sink);
    return sink;
  }

  public static FileHead head(String text) {
    return FileHead.of(text.getBytes(StandardCharsets.UTF_8));
  }
}
