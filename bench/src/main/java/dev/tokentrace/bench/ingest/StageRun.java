package dev.tokentrace.bench.ingest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs one stage as its own JVM and measures it: wall time, peak resident set ({@code VmHWM} from
 * {@code /proc}, sampled every {@value #SAMPLE_MILLIS} ms until the process exits) and heap from
 * the JVM's own GC log (used before each collection = the peak between collections; after = what
 * survived; the heap at exit). Not thread-safe.
 */
final class StageRun {
  private static final long SAMPLE_MILLIS = 50;

  /** {@code GC(3) Pause Young (Normal) (G1 Evacuation Pause) 300M->12M(512M) 4.1ms}. */
  private static final Pattern COLLECTION = Pattern.compile(" (\\d+)M->(\\d+)M\\((\\d+)M\\)");

  /** Heap at exit ({@code -Xlog:gc+heap+exit}): {@code garbage-first heap total 1024K, used 5K}. */
  private static final Pattern AT_EXIT = Pattern.compile("heap\\s+total \\d+K, used (\\d+)K");

  /** What one stage measured; heap figures in MiB. */
  record Measured(
      String stage,
      double seconds,
      double cpuSeconds,
      long peakRssMib,
      long peakHeapMib,
      long liveHeapMib) {}

  private StageRun() {}

  /**
   * Runs {@code java <jvmOptions> -cp <ours> <mainClass> <args>} with stdout to {@code out} and
   * stderr to {@code <work>/<stage>.err}; fails unless it exits 0.
   */
  static Measured run(Stage stage, Path work, Path out) throws IOException, InterruptedException {
    Path gcLog = work.resolve(stage.name() + ".gc.log");
    Files.deleteIfExists(gcLog);
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(stage.jvmOptions());
    command.add("-Xlog:gc,gc+heap+exit:file=" + gcLog);
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), stage.mainClass()));
    command.addAll(stage.args());
    long started = System.nanoTime();
    Process process =
        new ProcessBuilder(command)
            .redirectOutput(out.toFile())
            .redirectError(work.resolve(stage.name() + ".err").toFile())
            .start();
    long peakRss = 0;
    double cpu = 0;
    while (!process.waitFor(SAMPLE_MILLIS, java.util.concurrent.TimeUnit.MILLISECONDS)) {
      peakRss = Math.max(peakRss, peakRssKib(process.pid()));
      cpu = Math.max(cpu, cpuSeconds(process.pid()));
    }
    double seconds = (System.nanoTime() - started) / 1e9;
    if (process.exitValue() != 0) {
      throw new IllegalStateException(
          stage.name()
              + " exited "
              + process.exitValue()
              + "; see "
              + work.resolve(stage.name() + ".err"));
    }
    long[] heap = heapMib(gcLog);
    return new Measured(stage.name(), seconds, cpu, peakRss / 1024, heap[0], heap[1]);
  }

  /** Starts a long-running helper (the broker) with output to {@code <work>/<name>.err}. */
  static Process start(Stage stage, Path work) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(stage.jvmOptions());
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), stage.mainClass()));
    command.addAll(stage.args());
    Path log = work.resolve(stage.name() + ".err");
    return new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(log.toFile())
        .start();
  }

  /** VmHWM in KiB, 0 once the process is gone (the last sample before exit stands). */
  private static long peakRssKib(long pid) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
        if (line.startsWith("VmHWM:")) {
          return Long.parseLong(line.substring(6).replace("kB", "").strip());
        }
      }
    } catch (IOException | UncheckedIOException e) {
      // the process exited between waitFor and the read: its earlier samples stand
      return 0;
    }
    return 0;
  }

  /**
   * User plus system CPU seconds of all the process's threads ({@code stat} fields 14 and 15, in
   * USER_HZ = 1/100 s); 0 once the process is gone (the last sample before exit stands).
   */
  private static double cpuSeconds(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / 100.0;
    } catch (IOException | UncheckedIOException e) {
      // the process exited between waitFor and the read: its earlier samples stand
      return 0;
    }
  }

  /** [peak used, largest live after a collection] in MiB from the GC log. */
  private static long[] heapMib(Path gcLog) throws IOException {
    long peak = 0;
    long live = 0;
    for (String line : Files.readAllLines(gcLog)) {
      Matcher collection = COLLECTION.matcher(line);
      if (collection.find()) {
        peak = Math.max(peak, Long.parseLong(collection.group(1)));
        live = Math.max(live, Long.parseLong(collection.group(2)));
      }
      Matcher exit = AT_EXIT.matcher(line);
      if (exit.find()) {
        peak = Math.max(peak, Long.parseLong(exit.group(1)) / 1024);
      }
    }
    return new long[] {peak, live};
  }
}
