package dev.tokentrace.store.query;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/** "Did you mean ...?" for a mistyped name: the closest candidate within two edits. */
final class NearMiss {
  private static final int MAX_EDITS = 2;

  private NearMiss() {}

  static Optional<String> of(String typed, List<String> candidates) {
    return candidates.stream()
        .filter(candidate -> distance(typed, candidate) <= MAX_EDITS)
        .min(Comparator.comparingInt(candidate -> distance(typed, candidate)));
  }

  /** Levenshtein distance. */
  static int distance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }
}
