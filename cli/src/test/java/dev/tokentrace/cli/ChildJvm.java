package dev.tokentrace.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A {@code tokentrace} command in a JVM of its own, started from the test classpath, so that a test
 * can kill it ({@code kill -9}: {@link #kill()}) or stop it like a service manager ({@code
 * SIGTERM}: {@link #stop()}). Its stdout and stderr go to files next to each other.
 */
final class ChildJvm implements AutoCloseable {
  static final Duration START_TIMEOUT = Duration.ofSeconds(90);
  static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);

  private final String name;
  private final Process process;
  private final Path stdout;
  private final Path stderr;

  private ChildJvm(String name, Process process, Path stdout, Path stderr) {
    this.name = name;
    this.process = process;
    this.stdout = stdout;
    this.stderr = stderr;
  }

  /** Starts {@code tokentrace args...} with {@code heap} (e.g. 256m); output under {@code dir}. */
  static ChildJvm start(Path dir, String name, String heap, String... args) throws IOException {
    return start(dir, name, heap, List.of(), args);
  }

  /** Like {@link #start(Path, String, String, String...)}, with JVM options (e.g. -D...). */
  static ChildJvm start(Path dir, String name, String heap, List<String> jvmOptions, String... args)
      throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx" + heap);
    command.addAll(jvmOptions);
    // Small, quick JVMs: the machine is shared and these only have to be correct, not fast.
    command.add("-XX:+UseSerialGC");
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-cp");
    command.add(classpath());
    command.add(TokentraceMain.class.getName());
    command.addAll(List.of(args));
    Path stdout = dir.resolve(name + ".out");
    Path stderr = dir.resolve(name + ".err");
    Process process =
        new ProcessBuilder(command)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(stdout.toFile()))
            .redirectError(ProcessBuilder.Redirect.appendTo(stderr.toFile()))
            .start();
    return new ChildJvm(name, process, stdout, stderr);
  }

  /**
   * A test's own {@code main} class (not {@code tokentrace}) in a JVM of its own, from the test
   * classpath: a reader or writer that must be another process than the test's.
   */
  static ChildJvm startMain(Path dir, String name, String heap, Class<?> main, String... args)
      throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx" + heap);
    command.add("-XX:+UseSerialGC");
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-cp");
    command.add(classpath());
    command.add(main.getName());
    command.addAll(List.of(args));
    Path stdout = dir.resolve(name + ".out");
    Path stderr = dir.resolve(name + ".err");
    Process process =
        new ProcessBuilder(command)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(stdout.toFile()))
            .redirectError(ProcessBuilder.Redirect.appendTo(stderr.toFile()))
            .start();
    return new ChildJvm(name, process, stdout, stderr);
  }

  /** The test JVM's classpath (failsafe names it; the booter jar's manifest holds it otherwise). */
  private static String classpath() {
    String classpath = System.getProperty("surefire.test.class.path");
    if (classpath == null || classpath.isBlank()) {
      classpath = System.getProperty("java.class.path");
    }
    return String.join(File.pathSeparator, classpath.split(File.pathSeparator));
  }

  /** Waits until stdout or stderr holds a line matching {@code line}; returns that line. */
  String await(Predicate<String> line, Duration timeout, String what) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      for (String text : lines()) {
        if (line.test(text)) {
          return text;
        }
      }
      assertThat(process.isAlive() || System.nanoTime() < deadline)
          .as(name + " exited (" + exitValueOrNull() + ") before " + what + ":\n" + output())
          .isTrue();
      assertThat(System.nanoTime())
          .as(name + ": waiting for " + what + ":\n" + output())
          .isLessThan(deadline);
      Thread.sleep(50);
    }
  }

  /**
   * Waits until a following command ({@code sink}, {@code ship}, ... with {@code --follow}) printed
   * its {@code "<command>: following"} line; its SIGTERM hook is installed by then (a {@code sink
   * --follow} installs it before it waits for Kafka). A JVM stopped before its hook exits 143 with
   * empty stderr; so a test that stops such a command and judges
   * its exit code waits for this first. Returns that line.
   */
  String awaitStarted(String command) throws Exception {
    return await(
        line -> line.startsWith(command + ": following"), START_TIMEOUT, command + " following");
  }

  /** {@link #awaitStarted(String)} of a {@code sink --follow}. */
  String awaitSinkStarted() throws Exception {
    return awaitStarted("sink");
  }

  /**
   * Stops a started {@code sink --follow} with SIGTERM (after {@link #awaitSinkStarted()}) and
   * checks its exit: 0 after its last flush; or, on a machine loaded far beyond its cores where the
   * flush and leaving the group outlast the 4.5 s grace of every command, 143 saying so ("did not
   * stop within"): what it had not committed is read again by the next owner, so that is accepted,
   * and only that. Returns the exit code.
   */
  int stopSink() throws Exception {
    awaitSinkStarted();
    int code = stop();
    if (code != 0) {
      assertThat(code).as(output()).isEqualTo(143);
      assertThat(stderr()).as(output()).contains("did not stop within");
    }
    return code;
  }

  /** {@code kill -9}: no shutdown hook runs, nothing is flushed or committed. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    assertThat(process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)).isTrue();
  }

  /** SIGTERM, then waits for the process to end; returns its exit code. */
  int stop() throws InterruptedException {
    process.destroy();
    return waitFor();
  }

  /** Waits for the process to end by itself; returns its exit code. */
  int waitFor() throws InterruptedException {
    return waitFor(STOP_TIMEOUT);
  }

  /** Waits at most {@code timeout} for the process to end by itself; returns its exit code. */
  int waitFor(Duration timeout) throws InterruptedException {
    assertThat(process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS))
        .as(name + " did not end:\n" + output())
        .isTrue();
    return process.exitValue();
  }

  boolean alive() {
    return process.isAlive();
  }

  long pid() {
    return process.pid();
  }

  /** Everything it printed so far, stdout then stderr. */
  String output() {
    return String.join("\n", lines());
  }

  String stderr() throws IOException {
    return Files.exists(stderr) ? Files.readString(stderr, UTF_8) : "";
  }

  private List<String> lines() {
    List<String> lines = new ArrayList<>();
    for (Path file : List.of(stdout, stderr)) {
      try {
        if (Files.exists(file)) {
          lines.addAll(Files.readAllLines(file, UTF_8));
        }
      } catch (IOException e) {
        // A file being written can be read again on the next poll; nothing is lost by waiting.
        lines.add("(cannot read " + file + ": " + e + ")");
      }
    }
    return lines;
  }

  private String exitValueOrNull() {
    return process.isAlive() ? "running" : String.valueOf(process.exitValue());
  }

  /** Kills the process if it still runs (test cleanup). */
  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      process.destroyForcibly();
      process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    }
  }
}
