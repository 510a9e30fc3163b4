package dev.tokentrace.cli;

import static dev.tokentrace.cli.GatewayLiveIT.executable;
import static dev.tokentrace.cli.GatewayLiveIT.ingest;
import static dev.tokentrace.cli.GatewayLiveIT.max;
import static dev.tokentrace.cli.GatewayLiveIT.median;
import static dev.tokentrace.cli.GatewayLiveIT.min;
import static dev.tokentrace.cli.GatewayLiveIT.number;
import static dev.tokentrace.cli.GatewayLiveIT.rows;
import static dev.tokentrace.cli.GatewayLiveIT.run;
import static dev.tokentrace.cli.GatewayLiveIT.truth;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real Apache JMeter 5.6.3, assembled from Maven Central by {@code scripts/jmeter/pom.xml}, runs
 * the checked-in plan {@code scripts/jmeter/tokentrace.jmx} against {@code simulate --serve} (in
 * this JVM), through Debian's {@code nginx} when it is installed (GatewayLiveIT's proxy and {@code
 * log_format tokentrace}). The JTL (CSV, the plan's {@code request_id} saved through {@code
 * sample_variables}) is loaded by {@code clients} with format detection, the access log with {@code
 * --format nginx}, and {@code correlate} attributes.
 *
 * <p>Checks: every sample is a row and joins the server's record by ID; rows are attributed by the
 * end-to-end view (JMeter's Latency is time to first byte, never TTFT:
 * docs/formats/gateways.md#jmeter); the server components equal the simulator's truth; with nginx
 * the vantage is client+gateway and the two legs add up to network, neither below the product's
 * suspect threshold. Skips with a message when Maven cannot resolve JMeter (no network, no {@code
 * mvn}); an installed JMeter is used instead when {@code TOKENTRACE_JMETER_HOME} names it.
 */
final class JmeterLiveIT {
  private static final String VERSION = "5.6.3";
  private static final int THREADS = 3;
  private static final int LOOPS = 8;
  private static final double ROUNDING_MS = 0.01;

  /** The product's suspect rule, −max(5 ms, 1 %): see GatewayLiveIT#RESOLUTION_MS. */
  private static final double RESOLUTION_MS = 5.0;

  @TempDir Path dir;

  @Test
  void jmeterPlanStreamsUniqueIdsAndItsJtlIsAttributed() throws Exception {
    Path home = jmeterHome();
    Path root = Path.of("").toAbsolutePath().getParent();
    Path plan = root.resolve("scripts/jmeter/tokentrace.jmx");
    Optional<Path> nginx = executable("nginx");
    if (nginx.isEmpty()) {
      System.out.println(
          "JmeterLiveIT: nginx not installed (apt-get install nginx): JMeter talks to the server"
              + " directly, the gateway leg is not checked");
    }
    Path served = dir.resolve("server");
    Path jtl = dir.resolve("results.jtl");
    Path access = dir.resolve("nginx/access.log");
    LiveSimulator server = LiveSimulator.start(served);
    String jmeterOutput;
    try {
      int port = server.port();
      if (nginx.isPresent()) {
        try (GatewayLiveIT.Nginx proxy =
            GatewayLiveIT.Nginx.start(nginx.get(), dir.resolve("nginx"), port)) {
          jmeterOutput = jmeter(home, plan, proxy.port(), jtl);
        }
      } else {
        jmeterOutput = jmeter(home, plan, port, jtl);
      }
    } finally {
      server.stop();
    }
    List<String> lines = Files.readAllLines(jtl, StandardCharsets.UTF_8);
    assertThat(lines).as(jmeterOutput).hasSize(1 + THREADS * LOOPS);
    assertThat(lines.get(0)).as("JTL header").startsWith("timeStamp,").contains("request_id");

    Path db = dir.resolve("jmeter.duckdb");
    ingest(db, served);
    run("clients", "--db", db.toString(), "--run-id", "jmeter", jtl.toString());
    if (nginx.isPresent()) {
      run(
          "clients",
          "--db",
          db.toString(),
          "--run-id",
          "nginx",
          "--format",
          "nginx",
          access.toString());
    }
    run("correlate", "--db", db.toString());

    assertThat(rows(db, "SELECT client_format FROM client_timing WHERE run_id = 'jmeter'"))
        .hasSize(THREADS * LOOPS)
        .allSatisfy(row -> assertThat(row.get("client_format")).isEqualTo("jmeter"));
    Map<String, double[]> truth = truth(served.resolve("server_truth.csv"));
    List<Map<String, Object>> rows =
        rows(
            db,
            "SELECT request_key, run_id, join_status, vantage, timing_view, included,"
                + " network_ttft_ms, queue_ms, prefill_ms, decode_ms, network_ms,"
                + " network_client_gateway_ms, network_gateway_engine_ms FROM request_attribution");
    assertThat(rows).hasSize(THREADS * LOOPS);
    List<Double> network = new ArrayList<>();
    List<Double> gatewayEngine = new ArrayList<>();
    for (Map<String, Object> row : rows) {
      String key = (String) row.get("request_key");
      assertThat(key).as("the plan's ID").matches("jmeter-\\d+-\\d+");
      assertThat(row.get("run_id")).as(key).isEqualTo("jmeter");
      assertThat(row.get("join_status")).as(key).isEqualTo("matched");
      assertThat(row.get("timing_view")).as(key).isEqualTo("e2e");
      assertThat(row.get("network_ttft_ms")).as(key).isNull();
      assertThat(row.get("included")).as(key).isEqualTo(true);
      double[] expected = truth.get(key);
      assertThat(expected).as("truth of " + key).isNotNull();
      assertThat(number(row, "queue_ms")).isCloseTo(expected[0], offset(ROUNDING_MS));
      assertThat(number(row, "prefill_ms")).isCloseTo(expected[1], offset(ROUNDING_MS));
      assertThat(number(row, "decode_ms")).isCloseTo(expected[2], offset(ROUNDING_MS));
      network.add(number(row, "network_ms"));
      if (nginx.isPresent()) {
        assertThat(row.get("vantage")).as(key).isEqualTo("client+gateway");
        double legs =
            number(row, "network_client_gateway_ms") + number(row, "network_gateway_engine_ms");
        assertThat(legs)
            .as(key + " legs add up")
            .isCloseTo(number(row, "network_ms"), offset(1e-6));
        assertThat(number(row, "network_client_gateway_ms"))
            .as(key + " client-gateway leg")
            .isGreaterThanOrEqualTo(-RESOLUTION_MS);
        gatewayEngine.add(number(row, "network_gateway_engine_ms"));
      } else {
        assertThat(row.get("vantage")).as(key).isEqualTo("client");
      }
    }
    System.out.printf(
        Locale.ROOT,
        "JmeterLiveIT: %d samples%s; network (e2e view) ms min %.3f median %.3f max %.3f%s%n",
        rows.size(),
        nginx.isPresent() ? " through nginx" : "",
        min(network),
        median(network),
        max(network),
        nginx.isPresent()
            ? String.format(
                Locale.ROOT,
                "; gateway-engine ms min %.3f median %.3f",
                min(gatewayEngine),
                median(gatewayEngine))
            : "");
    // JMeter's elapsed is whole ms and its timeStamp ms: network may read up to 1 ms low
    assertThat(min(network)).as("network, ms").isGreaterThanOrEqualTo(-RESOLUTION_MS);
    if (nginx.isPresent()) {
      assertThat(min(gatewayEngine))
          .as("gateway-engine leg")
          .isGreaterThanOrEqualTo(-RESOLUTION_MS);
    }
  }

  /** Runs the plan in a JMeter JVM of its own; returns its console output. */
  private String jmeter(Path home, Path plan, int port, Path jtl) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> command =
        List.of(
            java,
            "-Xmx256m",
            "-Djava.util.prefs.userRoot=" + dir.resolve("prefs"),
            "-jar",
            home.resolve("bin/ApacheJMeter.jar").toString(),
            "-n",
            "-t",
            plan.toString(),
            "-l",
            jtl.toString(),
            "-j",
            dir.resolve("jmeter.log").toString(),
            "-Jhost=127.0.0.1",
            "-Jport=" + port,
            "-Jthreads=" + THREADS,
            "-Jloops=" + LOOPS,
            "-Jmax_tokens=12",
            "-Jsample_variables=request_id",
            "-Jsampleresult.timestamp.start=true",
            "-Jjmeter.save.saveservice.connect_time=true",
            "-Jjmeter.save.saveservice.latency=true",
            "-Jjmeterengine.nongui.port=0", // no shutdown listener port
            "-Jsummariser.interval=600");
    Process process =
        new ProcessBuilder(command)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("jmeter.out").toFile())
            .start();
    if (!process.waitFor(120, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("JMeter did not finish in 120 s: " + console());
    }
    assertThat(process.exitValue()).as(console()).isZero();
    return console();
  }

  private String console() throws IOException {
    Path out = dir.resolve("jmeter.out");
    return Files.exists(out) ? Files.readString(out) : "";
  }

  /**
   * A JMeter home: {@code TOKENTRACE_JMETER_HOME}, else one assembled under {@code target/} by
   * {@code scripts/jmeter/pom.xml} (offline first, then from Maven Central); skips when neither
   * works.
   */
  private static Path jmeterHome() throws Exception {
    String installed = System.getenv("TOKENTRACE_JMETER_HOME");
    if (installed != null && !installed.isBlank()) {
      Path home = Path.of(installed);
      assertThat(home.resolve("bin/ApacheJMeter.jar"))
          .as("TOKENTRACE_JMETER_HOME names a JMeter installation")
          .exists();
      return home;
    }
    Path home = Path.of("target", "jmeter-" + VERSION).toAbsolutePath();
    if (Files.exists(home.resolve("bin/ApacheJMeter.jar"))
        && Files.exists(home.resolve("lib/ext/ApacheJMeter_functions-" + VERSION + ".jar"))) {
      return home;
    }
    Optional<Path> mvn = executable("mvn");
    if (mvn.isEmpty() && System.getenv("MAVEN_HOME") != null) {
      mvn = Optional.of(Path.of(System.getenv("MAVEN_HOME"), "bin", "mvn"));
    }
    assumeTrue(
        mvn.isPresent() && Files.isExecutable(mvn.get()),
        "JMeter " + VERSION + " not resolvable: no mvn on PATH to fetch it from Maven Central");
    Path pom = Path.of("").toAbsolutePath().getParent().resolve("scripts/jmeter/pom.xml");
    String offline = assemble(mvn.get(), pom, home, true);
    if (offline != null) {
      String online = assemble(mvn.get(), pom, home, false);
      assumeTrue(
          online == null,
          () ->
              "JMeter "
                  + VERSION
                  + " could not be resolved from Maven Central (mvn -f scripts/jmeter/pom.xml"
                  + " package): "
                  + online);
    }
    Files.createDirectories(home.resolve("lib/junit")); // JMeter's launcher scans it
    return home;
  }

  /** Runs the assembly; null when it worked, else the tail of Maven's output. */
  private static String assemble(Path mvn, Path pom, Path home, boolean offline) throws Exception {
    List<String> command = new ArrayList<>(List.of(mvn.toString(), "-B", "-q"));
    if (offline) {
      command.add("-o");
    }
    command.addAll(
        List.of("-f", pom.toString(), "package", "-Djmeter.dir=" + home, "-Dstyle.color=never"));
    Path log = Files.createTempFile("jmeter-assemble", ".log");
    try {
      Process process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
      if (!process.waitFor(10, TimeUnit.MINUTES)) {
        process.destroyForcibly();
        return "timed out after 10 minutes";
      }
      if (process.exitValue() == 0 && Files.exists(home.resolve("bin/ApacheJMeter.jar"))) {
        return null;
      }
      List<String> lines = Files.readAllLines(log);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 5), lines.size()));
    } finally {
      Files.deleteIfExists(log);
    }
  }
}
