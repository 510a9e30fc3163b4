package dev.tokentrace.cli;

import dev.tokentrace.simulator.live.LiveServer;
import dev.tokentrace.simulator.output.LiveOutputs;
import dev.tokentrace.simulator.scenario.ScenarioSettings;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;

/**
 * {@code simulate --serve}: runs a {@link LiveServer} until SIGTERM or Ctrl-C (or, in-process,
 * until the calling thread is interrupted), then closes it so the span export and the truth file
 * hold everything the server did.
 */
final class LiveServe {
  private final PrintWriter out;
  private final PrintWriter err;
  private final Path dir;

  LiveServe(CommandLine commandLine, Path dir) {
    this.out = commandLine.getOut();
    this.err = commandLine.getErr();
    this.dir = dir;
  }

  int run(ScenarioSettings settings, String bind, int port) {
    LiveServer server;
    try {
      server =
          LiveServer.start(
              new InetSocketAddress(bind, port), dir, settings.simulation(), settings.output());
    } catch (UncheckedIOException e) {
      err.println("simulate: " + e.getMessage() + ": " + e.getCause().getMessage());
      err.flush();
      return ExitCodes.INFRASTRUCTURE;
    }
    CountDownLatch stop = new CountDownLatch(1);
    try (ShutdownHook hook = ShutdownHook.install("simulate", err, stop::countDown)) {
      out.printf(
          "simulate: serving %s on http://%s:%d%s (%s %s), writing %s and %s; Ctrl-C to stop%n",
          settings.output().api().name().toLowerCase(java.util.Locale.ROOT),
          bind,
          server.port(),
          settings.output().api().path(),
          settings.output().format().engine().id(),
          settings.output().format().version(),
          dir.resolve("server.log"),
          dir.resolve(LiveOutputs.TRUTH_FILE));
      out.flush();
      boolean interrupted = false;
      try {
        stop.await();
      } catch (InterruptedException e) {
        interrupted = true; // in-process callers stop the server this way
      }
      int code = close(server);
      hook.finished(code);
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
      return code;
    }
  }

  private int close(LiveServer server) {
    try {
      server.close();
      err.println("simulate: stopped; files in " + dir);
      err.flush();
      return ExitCodes.OK;
    } catch (RuntimeException e) {
      err.println("simulate: " + TokentraceMain.describe(e));
      err.flush();
      return ExitCodes.INFRASTRUCTURE;
    }
  }
}
