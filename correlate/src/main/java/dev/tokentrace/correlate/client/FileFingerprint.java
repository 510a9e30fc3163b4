package dev.tokentrace.correlate.client;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Size and SHA-256 of a file, recorded in {@code run_files} and used to skip a file loaded twice.
 */
record FileFingerprint(long bytes, String sha256) {
  static FileFingerprint of(Path file) {
    MessageDigest digest = newDigest();
    byte[] buffer = new byte[64 * 1024];
    long bytes = 0;
    try (InputStream in = Files.newInputStream(file)) {
      for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
        digest.update(buffer, 0, read);
        bytes += read;
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
    return new FileFingerprint(bytes, HexFormat.of().formatHex(digest.digest()));
  }

  private static MessageDigest newDigest() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK has no SHA-256", e);
    }
  }
}
