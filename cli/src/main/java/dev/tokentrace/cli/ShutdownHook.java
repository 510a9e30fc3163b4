package dev.tokentrace.cli;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Stops a long-running command cleanly on SIGTERM or Ctrl-C: the hook asks the work to stop, waits
 * until the command has committed what it holds and printed its summary, and then ends the process
 * with the command's own exit code (not the JVM's 143), so a service manager sees 0 for a clean
 * stop and 3 when rejects exceeded the tolerance. Removed again when the command ends by itself.
 */
final class ShutdownHook implements AutoCloseable {
  /**
   * Longest wait for the work to wind down: SIGTERM ends any command within 5 s (a stopping shipper
   * gives up on an unreachable Kafka after 3 s). What was not committed by then is read again from
   * the checkpoint (or the sink's stored offsets) on the next run.
   */
  private static final Duration GRACE = Duration.ofMillis(4500);

  private final Thread hook;
  private final CountDownLatch finished = new CountDownLatch(1);
  private volatile int exitCode = ExitCodes.INFRASTRUCTURE;
  private volatile boolean signalled;

  private ShutdownHook(String command, PrintWriter err, Runnable stop) {
    this.hook = new Thread(() -> onSignal(command, err, stop), "tokentrace-" + command + "-stop");
  }

  /** Installs a hook that runs {@code stop} on SIGTERM or Ctrl-C. */
  static ShutdownHook install(String command, PrintWriter err, Runnable stop) {
    ShutdownHook shutdown = new ShutdownHook(command, err, stop);
    Runtime.getRuntime().addShutdownHook(shutdown.hook);
    return shutdown;
  }

  /** True when the process is stopping because of a signal. */
  boolean signalled() {
    return signalled;
  }

  /**
   * The command finished with {@code code} and printed its summary: a signalled process exits with
   * it.
   */
  void finished(int code) {
    exitCode = code;
    finished.countDown();
  }

  /**
   * The command failed while stopping on a signal: say why here, since the process ends before the
   * usual error report would be printed. Nothing to do without a signal.
   */
  void failed(PrintWriter err, String command, RuntimeException e) {
    if (signalled) {
      err.println(command + ": " + TokentraceMain.describe(e));
      err.flush();
      finished(ExitCodes.INFRASTRUCTURE);
    }
  }

  @Override
  public void close() {
    if (!signalled) {
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException e) {
        // The JVM is shutting down already (a signal arrived just now): the hook runs and ends.
        signalled = true;
      }
    }
  }

  private void onSignal(String command, PrintWriter err, Runnable stop) {
    signalled = true;
    err.println(command + ": stop requested (SIGTERM or Ctrl-C): finishing and committing ...");
    err.flush();
    stop.run();
    try {
      if (!finished.await(GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
        err.println(
            command
                + ": did not stop within "
                + GRACE.toMillis()
                + " ms; exiting (what was not committed is read again on the next run)");
        err.flush();
        return;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    }
    // halt skips deleteOnExit: the native libraries unpacked into the temp directory go by hand
    NativeTempFiles.deleteMapped();
    Runtime.getRuntime().halt(exitCode);
  }
}
