package dev.tokentrace.cli;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Plays an inference server writing its log: appends vLLM request lines
 * (docs/formats/vllm.md#request-lines, 2025-10-13 layout, composed by us), each with its own id
 * {@code <prefix>-<serial>} so every line is one event a test can find, at a steady rate on its own
 * thread. It can rotate its log like logrotate does, by rename (keeping the old handle for a few
 * more lines, as a server does until it reopens) or by copytruncate. Every write is a whole line.
 */
final class LogWriter implements AutoCloseable {
  private final Path log;
  private final String prefix;
  private final int linesPerSecond;
  private final List<String> ids = Collections.synchronizedList(new ArrayList<>());
  private final AtomicBoolean stop = new AtomicBoolean();
  private final List<Runnable> pending = Collections.synchronizedList(new ArrayList<>());
  private final Thread thread;
  private final ReentrantLock writing = new ReentrantLock();
  private OutputStream output;
  private long serial;
  private volatile Throwable failure;

  LogWriter(Path log, String prefix, int linesPerSecond) throws IOException {
    this.log = log;
    this.prefix = prefix;
    this.linesPerSecond = linesPerSecond;
    this.output = open(log);
    this.thread = new Thread(this::run, "log-writer-" + prefix);
  }

  static String line(String prefix, long serial) {
    return String.format(
        Locale.ROOT,
        "INFO 03-02 10:%02d:%02d [logger.py:39] Received request %s-%07d: params:"
            + " SamplingParams(max_tokens=16), lora_request: None.\n",
        (serial / 60) % 60,
        serial % 60,
        prefix,
        serial);
  }

  static String id(String prefix, long serial) {
    return String.format(Locale.ROOT, "%s-%07d", prefix, serial);
  }

  /** Writes {@code count} lines at once (before or instead of the steady stream). */
  LogWriter write(int count) throws IOException {
    for (int i = 0; i < count; i++) {
      writeLine();
    }
    output.flush();
    return this;
  }

  LogWriter start() {
    thread.start();
    return this;
  }

  /** Runs {@code action} on the writer's thread between two lines. */
  void between(Runnable action) {
    pending.add(action);
  }

  /** logrotate's default: rename, the server writes {@code late} more lines, then a new file. */
  void rotateByRename(Path renamed, int late) {
    between(
        () -> {
          try {
            Files.move(log, renamed);
            for (int i = 0; i < late; i++) {
              writeLine();
            }
            output.close();
            output = open(log);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
  }

  /** Holds the writer after the line it is writing, until {@link #resume()}. */
  void pause() {
    writing.lock();
  }

  void resume() {
    writing.unlock();
  }

  /**
   * logrotate's copytruncate, while {@link #pause() paused}: copy, then truncate in place. Lines
   * written between the copy and the truncation exist only in the copy, and so do lines a tailer
   * had not read yet when the file was truncated: any tailer misses them (copytruncate's inherent
   * race). The test therefore pauses the writer and waits until everything was read first.
   */
  void copyTruncate(Path copy) throws IOException {
    Files.copy(log, copy, StandardCopyOption.REPLACE_EXISTING);
    Files.write(log, new byte[0], StandardOpenOption.TRUNCATE_EXISTING);
  }

  /** Stops after the line being written; returns every id written. */
  List<String> finish() throws InterruptedException {
    stop.set(true);
    thread.join();
    if (failure != null) {
      throw new AssertionError("log writer failed", failure);
    }
    synchronized (ids) {
      return List.copyOf(ids);
    }
  }

  /** How many lines were written so far. */
  int written() {
    return ids.size();
  }

  /** The ids written so far. */
  List<String> ids() {
    synchronized (ids) {
      return List.copyOf(ids);
    }
  }

  private void run() {
    long started = System.nanoTime();
    try {
      while (!stop.get()) {
        writing.lock();
        try {
          runPending();
          writeLine();
        } finally {
          writing.unlock();
        }
        long due = started + serial * 1_000_000_000L / linesPerSecond;
        long wait = due - System.nanoTime();
        if (wait > 0) {
          Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
        }
      }
      output.close();
    } catch (IOException | RuntimeException | InterruptedException e) {
      failure = e;
    }
  }

  private void runPending() {
    List<Runnable> actions;
    synchronized (pending) {
      actions = List.copyOf(pending);
      pending.clear();
    }
    actions.forEach(Runnable::run);
  }

  private void writeLine() throws IOException {
    serial++;
    output.write(line(prefix, serial).getBytes(UTF_8));
    ids.add(id(prefix, serial));
  }

  private static OutputStream open(Path file) throws IOException {
    // O_APPEND, as loggers open their files: writes after a truncation land at the new end.
    return Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
  }

  @Override
  public void close() throws Exception {
    if (thread.isAlive()) {
      finish();
    }
  }
}
