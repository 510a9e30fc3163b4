package dev.tokentrace.bench.jmh;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
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
 * Operations per second of CPU time of the benchmark's worker threads ({@code *-jmh-worker-*}),
 * next to JMH's operations per second of wall time. On a shared machine a single-threaded benchmark
 * gets a varying share of a core, so wall-clock throughput mostly measures the neighbours;
 * operations per CPU-second of the thread doing the work is what "per core" means and does not
 * depend on them (cache sharing aside). JIT compiler and GC threads are not counted: the first is
 * warm-up, the second is reported by {@code -prof gc}. Use with {@code -prof
 * dev.tokentrace.bench.jmh.CpuTimeProfiler}.
 */
public final class CpuTimeProfiler implements InternalProfiler {
  /** Label of the secondary result. */
  static final String LABEL = "cpu";

  private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
  private long cpuStart;
  private long wallStart;

  @Override
  public String getDescription() {
    return "operations per CPU-second of the benchmark's worker threads";
  }

  @Override
  public void beforeIteration(BenchmarkParams benchmark, IterationParams iteration) {
    wallStart = System.nanoTime();
    cpuStart = workerCpuNanos();
  }

  @Override
  public Collection<? extends Result> afterIteration(
      BenchmarkParams benchmark, IterationParams iteration, IterationResult result) {
    long cpu = workerCpuNanos() - cpuStart;
    long wall = System.nanoTime() - wallStart;
    if (result.getRawPrimaryResults().isEmpty() || cpu <= 0) {
      return List.of(); // the iteration failed (JMH reports why)
    }
    double operations = result.getPrimaryResult().getScore() * wall / 1e9;
    return List.of(
        new ScalarResult(LABEL, operations / (cpu / 1e9), "ops/cpu-s", AggregationPolicy.AVG));
  }

  /** CPU time of the live JMH worker threads (JMH keeps them from one iteration to the next). */
  private long workerCpuNanos() {
    long total = 0;
    for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
      if (info != null && info.getThreadName().contains("jmh-worker")) {
        total += Math.max(0, threads.getThreadCpuTime(info.getThreadId()));
      }
    }
    return total;
  }
}
