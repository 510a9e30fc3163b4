package dev.tokentrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/**
 * {@code simulate --serve} in the test's JVM, on a free loopback port, as the live tests run it: a
 * vLLM-like engine with a small batch and fast steps answering the completions API, writing its
 * log, OTLP export and truth file under {@code served} as it goes. {@link #port()} waits for it to
 * listen; {@link #stop()} interrupts it and checks that it ended.
 */
final class LiveSimulator implements AutoCloseable {
  static final Duration TIMEOUT = Duration.ofSeconds(120);
  private static final Pattern SERVING = Pattern.compile("on http://127\\.0\\.0\\.1:(\\d+)/");

  private final Thread thread;
  private final StringWriter out;

  private LiveSimulator(Thread thread, StringWriter out) {
    this.thread = thread;
    this.out = out;
  }

  /**
   * Starts the server writing into {@code served}; {@code extra} options (e.g. {@code --engine
   * sglang}, {@code --heartbeat-s 0.02}) follow the usual ones.
   */
  static LiveSimulator start(Path served, String... extra) {
    StringWriter out = new StringWriter();
    return new LiveSimulator(serveInThread(served, out, "live-server", extra), out);
  }

  /** The thread of a server started like {@link #start}, printing its address to {@code out}. */
  static Thread serveInThread(Path served, StringWriter out, String threadName, String... extra) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "simulate",
                "--serve",
                "0",
                "--out",
                served.toString(),
                "--api",
                "completions",
                "--max-batch",
                "8",
                "--step-base-ms",
                "4",
                "--step-per-seq-ms",
                "0.2",
                "--prefill-per-token-ms",
                "0.01"));
    args.addAll(List.of(extra));
    CommandLine command = TokentraceMain.commandLine();
    command.setOut(new PrintWriter(out, true));
    command.setErr(new PrintWriter(new StringWriter(), true));
    Thread thread = new Thread(() -> command.execute(args.toArray(String[]::new)), threadName);
    thread.start();
    return thread;
  }

  /** Waits until the server in {@code thread} printed its address to {@code out}; its port. */
  static int awaitPort(StringWriter out, Thread thread) throws InterruptedException {
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    while (System.nanoTime() < deadline && thread.isAlive()) {
      Matcher matcher = SERVING.matcher(out.toString());
      if (matcher.find()) {
        return Integer.parseInt(matcher.group(1));
      }
      Thread.sleep(20);
    }
    throw new AssertionError("simulate --serve did not start: " + out);
  }

  /** Interrupts the server in {@code thread} and checks that it stopped. */
  static void stop(Thread thread) throws InterruptedException {
    thread.interrupt();
    thread.join(TIMEOUT.toMillis());
    assertThat(thread.isAlive()).as("simulate --serve stopped").isFalse();
  }

  /** The port it listens on, once it does. */
  int port() throws InterruptedException {
    return awaitPort(out, thread);
  }

  /** {@code http://127.0.0.1:PORT}, once it listens. */
  String url() throws InterruptedException {
    return "http://127.0.0.1:" + port();
  }

  /** Stops it (its files are complete afterwards) and checks that it ended; again is a no-op. */
  void stop() throws InterruptedException {
    stop(thread);
  }

  @Override
  public void close() throws InterruptedException {
    stop();
  }
}
