package dev.tokentrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Abuse suite (docs/live.md#abuse-suite): {@code scrape} against a hostile endpoint. Each scrape
 * runs in a JVM of its own with a small heap, so a body held whole in memory ends in {@code
 * OutOfMemoryError} instead of passing: an endless body, a 1 GiB body and one endless line are
 * refused by the caps, a trickled body by the whole-request deadline, each with one line on stderr
 * and nothing appended; and SIGTERM ends a scrape in flight within 5 s.
 */
final class AbuseScrapeIT {
  /** Heap of the scraping JVM: the default caps fit, a body of 1 GiB does not. */
  private static final String HEAP = "96m";

  @TempDir Path dir;

  @ParameterizedTest
  @EnumSource(HostileEndpoint.Mode.class)
  void aHostileResponseIsRefusedInOneLineWithBoundedMemory(HostileEndpoint.Mode mode)
      throws Exception {
    Path out = dir.resolve("metrics.prom");
    try (HostileEndpoint endpoint = HostileEndpoint.start(mode);
        ChildJvm scrape =
            ChildJvm.start(
                dir,
                "scrape",
                HEAP,
                "scrape",
                "--url",
                endpoint.url(),
                "--count",
                "1",
                "--interval",
                // the trickle meets the deadline; the others must meet their cap first, however
                // slowly a loaded machine moves 16 MiB
                mode == HostileEndpoint.Mode.TRICKLE ? "3s" : "60s",
                "--out",
                out.toString())) {
      int code = scrape.waitFor(Duration.ofSeconds(120));
      String stderr = scrape.stderr();
      assertThat(code).as(scrape.output()).isEqualTo(ExitCodes.INFRASTRUCTURE);
      List<String> lines = Arrays.stream(stderr.split("\n")).filter(l -> !l.isBlank()).toList();
      assertThat(lines).as(stderr).hasSize(1);
      assertThat(lines.get(0))
          .startsWith("scrape: " + endpoint.url() + ": ")
          .endsWith("nothing appended")
          .contains(
              switch (mode) {
                case ENDLESS_BODY, HUGE_BODY -> "longer than --max-bytes 16777216 bytes";
                case ENDLESS_LINE -> "line 1 of the response longer than --max-line-bytes 65536";
                case TRICKLE -> "no complete response within PT3S";
              });
      assertThat(Files.size(out)).as("nothing appended").isZero();
    }
  }

  @Test
  void theByteCapIsSetByItsFlagAndEachRefusalIsOneLine() throws Exception {
    Path out = dir.resolve("metrics.prom");
    try (HostileEndpoint endpoint = HostileEndpoint.start(HostileEndpoint.Mode.HUGE_BODY)) {
      java.io.StringWriter err = new java.io.StringWriter();
      picocli.CommandLine line = TokentraceMain.commandLine();
      line.setErr(new java.io.PrintWriter(err, true));
      line.setOut(new java.io.PrintWriter(new java.io.StringWriter(), true));
      int code =
          line.execute(
              "scrape",
              "--url",
              endpoint.url(),
              "--count",
              "2",
              "--interval",
              "200ms",
              "--max-bytes",
              "1000",
              "--out",
              out.toString());
      assertThat(code).isEqualTo(ExitCodes.INFRASTRUCTURE);
      assertThat(err.toString().lines().toList())
          .hasSize(2)
          .allMatch(l -> l.contains("longer than --max-bytes 1000 bytes (refused after"));
    }
  }

  @Test
  @Tag("serial") // a time bound: SIGTERM ends the process within 5 s
  void sigtermEndsAScrapeInFlightWithin5Seconds() throws Exception {
    Path out = dir.resolve("metrics.prom");
    try (HostileEndpoint endpoint = HostileEndpoint.start(HostileEndpoint.Mode.TRICKLE);
        ChildJvm scrape =
            ChildJvm.start(
                dir,
                "scrape",
                HEAP,
                "scrape",
                "--url",
                endpoint.url(),
                "--interval",
                "10m",
                "--out",
                out.toString())) {
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (endpoint.requests() == 0) {
        assertThat(scrape.alive()).as(scrape.output()).isTrue();
        assertThat(System.nanoTime()).as("no request arrived").isLessThan(deadline);
        Thread.sleep(50);
      }
      long signalled = System.nanoTime();
      ProcessHandle.of(scrape.pid()).orElseThrow().destroy();
      int code = scrape.waitFor(Duration.ofSeconds(30));
      long tookMs = (System.nanoTime() - signalled) / 1_000_000;
      assertThat(tookMs).as(scrape.output()).isLessThan(5000);
      assertThat(code).isEqualTo(ExitCodes.INFRASTRUCTURE);
      assertThat(scrape.stderr()).contains("stopped (SIGTERM or Ctrl-C) during the scrape");
    }
  }
}
