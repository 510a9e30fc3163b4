package dev.tokentrace.report.model;

import static java.util.Objects.requireNonNull;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What the analysis concludes about one client run (one workload): the short verdict and its
 * signals for badges, and the sentences with their numbers.
 *
 * @param top the component with the largest share of the run's time, null when none was attributed
 * @param topShare that component's share (a fraction)
 * @param sweep whether the run measured more than one concurrency level
 * @param queueing whether its FTL grew past the seed's rule between its levels
 */
public record RunSummary(
    String runId,
    long requests,
    long attributed,
    String verdict,
    List<String> signals,
    @Nullable ComponentKind top,
    @Nullable Double topShare,
    boolean sweep,
    boolean queueing,
    List<Text> sentences) {
  public RunSummary {
    requireNonNull(runId, "runId is null");
    requireNonNull(verdict, "verdict is null");
    signals = List.copyOf(signals);
    sentences = List.copyOf(sentences);
  }
}
