package dev.tokentrace.ingest.tail;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/** Short, stable words for why a file could not be read, for {@code path: reason} messages. */
public final class FileProblems {
  private FileProblems() {}

  /** {@code no such file}, {@code permission denied}, ... or the exception's own message. */
  public static String describe(IOException e) {
    if (e instanceof NoSuchFileException) {
      return "no such file";
    }
    if (e instanceof AccessDeniedException) {
      return "permission denied";
    }
    if (e instanceof NotDirectoryException) {
      return "not a directory";
    }
    String message = e.getMessage();
    if (message != null && message.contains("Is a directory")) {
      return "is a directory";
    }
    return message == null ? e.getClass().getSimpleName() : message;
  }
}
