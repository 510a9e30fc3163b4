package dev.tokentrace.parse.sglang;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The fuzz inputs of this engine's tests (every table line, and fixed-seed random mutations of
 * them), for the line-accounting property over all engines ({@code LineAccountingTest}).
 */
public final class SglangFuzzCorpus {
  private SglangFuzzCorpus() {}

  /** The table lines followed by {@code rounds} mutated copies of each, from a fixed seed. */
  public static List<String> lines(int rounds) {
    List<String> seeds = SglangHostileInputTest.corpus();
    List<String> lines = new ArrayList<>(seeds);
    Random random = new Random(20261201L);
    for (int round = 0; round < rounds; round++) {
      for (String seed : seeds) {
        lines.add(SglangHostileInputTest.mutate(seed, random));
      }
    }
    return lines;
  }
}
