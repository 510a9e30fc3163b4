package dev.tokentrace.simulator.output;

import java.nio.file.Path;
import java.util.List;

/**
 * What one run wrote.
 *
 * @param requests client requests (final attempts)
 * @param attempts attempts, retries included
 * @param simulatedUs model time from start to the last event
 * @param files every file written, SOURCE.md last
 * @param bytes their total size
 */
public record RunSummary(
    long requests, long attempts, long simulatedUs, List<Path> files, long bytes) {
  public RunSummary {
    files = List.copyOf(files);
  }
}
