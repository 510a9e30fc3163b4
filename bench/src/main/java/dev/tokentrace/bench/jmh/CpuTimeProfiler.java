package dev.tokentrace.bench.jmh;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.util.Collection;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * Operations per second of CPU time of the whole benchmark JVM (all threads, GC included), next to
 * JMH's operations per second of wall time. On a shared machine a single-threaded benchmark gets a
 * varying share of a core, so wall-clock throughput mostly measures the neighbours; operations per
 * CPU-second is what "per core" means and does not depend on them (cache sharing aside). Use with
 * {@code -prof dev.tokentrace.bench.jmh.CpuTimeProfiler}.
 */
public final class CpuTimeProfiler implements InternalProfiler {
  /** Label of the secondary result. */
  static final String LABEL = "cpu";

  private final OperatingSystemMXBean os =
      (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
  private long cpuStart;
  private long wallStart;

  @Override
  public String getDescription() {
    return "operations per CPU-second of the benchmark JVM";
  }

  @Override
  public void beforeIteration(BenchmarkParams benchmark, IterationParams iteration) {
    wallStart = System.nanoTime();
    cpuStart = os.getProcessCpuTime();
  }

  @Override
  public Collection<? extends Result> afterIteration(
      BenchmarkParams benchmark, IterationParams iteration, IterationResult result) {
    long cpu = os.getProcessCpuTime() - cpuStart;
    long wall = System.nanoTime() - wallStart;
    double operations = result.getPrimaryResult().getScore() * wall / 1e9;
    return List.of(
        new ScalarResult(LABEL, operations / (cpu / 1e9), "ops/cpu-s", AggregationPolicy.AVG));
  }
}
