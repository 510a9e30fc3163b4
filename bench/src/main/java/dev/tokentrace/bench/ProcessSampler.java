package dev.tokentrace.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Reads a Linux process's CPU time and memory from {@code /proc}: user plus system time of all its
 * threads ({@code stat} fields 14 and 15, in clock ticks of 1/100 s on Linux) and its resident set
 * ({@code VmRSS}) and peak resident set ({@code VmHWM}) from {@code status}.
 */
final class ProcessSampler {
  /** USER_HZ: /proc reports CPU time in these ticks; 100 on every Linux architecture we run on. */
  private static final double TICKS_PER_SECOND = 100.0;

  private final long pid;

  ProcessSampler(long pid) {
    this.pid = pid;
  }

  /** CPU seconds (user + system) the process used so far. */
  double cpuSeconds() throws IOException {
    String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
    // the command name (field 2) may hold spaces; fields after it start after the last ')'
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    long user = Long.parseLong(fields[11]);
    long system = Long.parseLong(fields[12]);
    return (user + system) / TICKS_PER_SECOND;
  }

  /** Resident set size in KiB now ({@code VmRSS}). */
  long rssKib() throws IOException {
    return statusKib("VmRSS:");
  }

  /** Peak resident set size in KiB ({@code VmHWM}). */
  long peakRssKib() throws IOException {
    return statusKib("VmHWM:");
  }

  private long statusKib(String key) throws IOException {
    List<String> lines = Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"));
    for (String line : lines) {
      if (line.startsWith(key)) {
        return Long.parseLong(line.substring(key.length()).replace("kB", "").strip());
      }
    }
    throw new IOException("no " + key + " in /proc/" + pid + "/status");
  }
}
