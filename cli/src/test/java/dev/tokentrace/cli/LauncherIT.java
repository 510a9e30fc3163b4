package dev.tokentrace.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher's JVM options (README, quick start): {@code -Xmx1g}; the demo, a short run, with C1
 * only (BENCHMARKS.md "First run, round 6"); {@code TOKENTRACE_JAVA_OPTS} replaces both. A stand-in
 * {@code java} first on the PATH prints its arguments instead of running anything, and {@code mvn}
 * is kept off the PATH, so the launcher can only run the jar this build packaged (an IT: the jar
 * exists after {@code package}).
 */
final class LauncherIT {
  private static final Path HOME = Path.of("..").toAbsolutePath().normalize();

  @TempDir Path bin;

  @Test
  void theDemoRunsWithC1OnlyAndTheOtherCommandsWithTheDefaultJit() throws Exception {
    assertThat(javaArguments(Map.of(), "demo"))
        .startsWith("-Xmx1g -XX:TieredStopAtLevel=1 -Dtokentrace.home=")
        .endsWith("tokentrace.jar demo");
    assertThat(javaArguments(Map.of(), "sql", "--list"))
        .startsWith("-Xmx1g -Dtokentrace.home=")
        .doesNotContain("TieredStopAtLevel");
  }

  @Test
  void userOptionsReplaceTheDefaultsWhole() throws Exception {
    assertThat(javaArguments(Map.of("TOKENTRACE_JAVA_OPTS", "-Xmx256m -Dx=1"), "demo"))
        .startsWith("-Xmx256m -Dx=1 -Dtokentrace.home=")
        .doesNotContain("TieredStopAtLevel")
        .doesNotContain("-Xmx1g");
    assertThat(javaArguments(Map.of("TOKENTRACE_JAVA_OPTS", ""), "demo"))
        .as("empty is unset")
        .startsWith("-Xmx1g -XX:TieredStopAtLevel=1 ");
  }

  private String javaArguments(Map<String, String> environment, String... arguments)
      throws IOException, InterruptedException {
    Path jar = HOME.resolve("cli/target/tokentrace.jar");
    assumeThat(jar).as("the jar this build packaged").exists();
    Path java = bin.resolve("java");
    Files.writeString(java, "#!/bin/sh\necho \"$@\"\n", UTF_8);
    Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
    ProcessBuilder builder =
        new ProcessBuilder(
            concat(List.of(HOME.resolve("tokentrace").toString()), List.of(arguments)));
    builder.environment().remove("TOKENTRACE_JAVA_OPTS");
    builder.environment().putAll(environment);
    // the stand-in java and the tools the launcher uses, but not Maven: a stale jar fails instead
    // of building
    for (String tool : List.of("bash", "dirname", "find")) {
      Path link = bin.resolve(tool);
      if (!Files.exists(link)) {
        Files.createSymbolicLink(link, Path.of("/usr/bin", tool).toRealPath());
      }
    }
    builder.environment().put("PATH", bin.toString());
    builder.redirectErrorStream(true);
    Process process = builder.start();
    String output = new String(process.getInputStream().readAllBytes(), UTF_8).strip();
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    // maven-jar-plugin keeps a jar whose classes did not change, so after an edit elsewhere the
    // launcher may find the jar older than a source (a clean clone's build never does)
    assumeThat(output)
        .as("the launcher wants to rebuild the jar: run ./tokentrace once, then this test")
        .doesNotContain("tokentrace: building");
    assertThat(process.exitValue()).as(output).isZero();
    return output;
  }

  private static List<String> concat(List<String> a, List<String> b) {
    return Stream.concat(a.stream(), b.stream()).toList();
  }
}
