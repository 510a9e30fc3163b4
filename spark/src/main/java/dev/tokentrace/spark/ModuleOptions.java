package dev.tokentrace.spark;

import java.util.List;
import org.apache.spark.launcher.JavaModuleOptions;

/**
 * The JVM options Spark's own launcher ({@code spark-submit}, {@code spark-shell}) gives every
 * driver and executor on Java 17 and later: the {@code --add-opens} of the JDK packages Spark reads
 * by reflection (direct buffers, cleaners, Netty), as Spark lists them in {@code JavaModuleOptions}
 * (docs/scale.md#jvm-options). {@code tokentrace spark-correlate} starts its JVM without Spark's
 * launcher, so the {@code tokentrace} script asks this class once per build and passes them; the
 * spark module's tests get the same list through their {@code argLine}, pinned by {@code
 * ModuleOptionsTest}.
 */
public final class ModuleOptions {
  private ModuleOptions() {}

  /** Spark's options, one per element. */
  public static List<String> spark() {
    return List.of(JavaModuleOptions.defaultModuleOptionArray());
  }

  /** Prints the options on one line, separated by spaces, for a launcher script. */
  public static void main(String[] args) {
    System.out.println(String.join(" ", spark()));
  }
}
