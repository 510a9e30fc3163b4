package dev.tokentrace.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

/**
 * The spark module's tests run with Spark's own JVM options (spark/pom.xml {@code
 * spark.javaOptions}), so they run Spark as {@code spark-submit} and the launcher do
 * (docs/scale.md#jvm-options): when an upgrade of Spark changes its list, this names the option the
 * pom lacks.
 */
class ModuleOptionsTest {
  @Test
  void testsRunWithEveryOptionOfSparksLauncher() {
    assertThat(ManagementFactory.getRuntimeMXBean().getInputArguments())
        .containsAll(ModuleOptions.spark());
  }
}
