package dev.tokentrace.bench;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Appends vLLM request lines (docs/formats/vllm.md#request-lines, composed by us) round-robin to
 * the files at a steady total rate, one write per line as a logging server does, and records each
 * line's write time. Paced every millisecond from the start, so it neither drifts nor bursts.
 */
final class LineWriter implements AutoCloseable {
  private final List<OutputStream> outputs = new ArrayList<>();
  private final int rate;
  private final Freshness freshness;
  private final Thread thread = new Thread(this::run, "bench-writer");
  private volatile boolean stop;
  private volatile long written;
  private volatile IOException failure;

  LineWriter(List<Path> files, int rate, Freshness freshness) throws IOException {
    for (Path file : files) {
      outputs.add(Files.newOutputStream(file, StandardOpenOption.APPEND));
    }
    this.rate = rate;
    this.freshness = freshness;
  }

  static String line(long serial) {
    return String.format(
        Locale.ROOT,
        "INFO 03-02 10:%02d:%02d [logger.py:39] Received request b-%09d: params:"
            + " SamplingParams(max_tokens=16), lora_request: None.\n",
        (serial / 60) % 60,
        serial % 60,
        serial);
  }

  void start() {
    if (rate > 0) {
      thread.start();
    }
  }

  long written() {
    return written;
  }

  private void run() {
    long started = System.nanoTime();
    long serial = 0;
    try {
      while (!stop) {
        long due = (System.nanoTime() - started) * rate / 1_000_000_000L;
        while (serial < due) {
          serial++;
          OutputStream output = outputs.get((int) (serial % outputs.size()));
          output.write(line(serial).getBytes(UTF_8));
          freshness.written(serial, System.nanoTime());
          written = serial;
        }
        Thread.sleep(1);
      }
    } catch (IOException e) {
      failure = e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() throws IOException, InterruptedException {
    stop = true;
    if (thread.isAlive()) {
      thread.join();
    }
    for (OutputStream output : outputs) {
      output.close();
    }
    if (failure != null) {
      throw failure;
    }
  }
}
