package dev.tokentrace.report.model;

import static java.util.Objects.requireNonNull;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The server configuration of the report's database against its {@code --baseline}'s, stated before
 * any latency comparison: the sentence that opens the comparison (and closes the bottleneck
 * conclusion), the differences setting by setting, and what could not be compared.
 *
 * @param comparable whether both databases hold startup configuration lines
 * @param compared how many settings were compared over the paired instances
 * @param unpaired instances found on one side only, each with the side named
 */
public record ConfigComparison(
    Text sentence,
    boolean comparable,
    int compared,
    List<String> unpaired,
    List<Difference> differences) {
  public ConfigComparison {
    requireNonNull(sentence, "sentence is null");
    unpaired = List.copyOf(unpaired);
    differences = List.copyOf(differences);
  }

  /**
   * One difference: {@code label} is the engine's key where both sides use the same one; a null
   * value is a setting that side's logs do not state.
   */
  public record Difference(
      String instance, String label, @Nullable String baseline, @Nullable String current) {}
}
