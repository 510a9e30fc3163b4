package dev.tokentrace.loadgen;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The measurement protocol's sweep (docs/design.md#method): every combination of prompt length,
 * output length and concurrency, {@code rounds} rounds per cell (a round is one request per
 * concurrent user), in one client file with the cell recorded per request
 * (docs/formats/client-files.md#matrix-columns). Cells run in order: prompt, then output, then
 * concurrency varies fastest.
 *
 * @param prompts prompt lengths in tokens
 * @param outputs output lengths (max_tokens)
 * @param concurrencies concurrent users
 * @param rounds rounds per cell
 */
public record Matrix(
    List<Integer> prompts, List<Integer> outputs, List<Integer> concurrencies, int rounds) {
  /** Dimension names of {@code --matrix}: prompt, output, concurrency. */
  public static final List<String> DIMENSIONS = List.of("prompt", "output", "concurrency");

  public Matrix {
    prompts = List.copyOf(prompts);
    outputs = List.copyOf(outputs);
    concurrencies = List.copyOf(concurrencies);
    if (prompts.isEmpty() || outputs.isEmpty() || concurrencies.isEmpty()) {
      throw new IllegalArgumentException("--matrix: every dimension needs a value");
    }
    if (rounds < 1) {
      throw new IllegalArgumentException("--rounds must be >= 1: " + rounds);
    }
  }

  /** One cell of the sweep. */
  public record Cell(int promptTokens, int maxTokens, int concurrency) {
    /** The label stored per request, e.g. {@code prompt=512 output=64 concurrency=4}. */
    public String label() {
      return String.format(
          Locale.ROOT, "prompt=%d output=%d concurrency=%d", promptTokens, maxTokens, concurrency);
    }

    /** A short form for request IDs, e.g. {@code p512-o64-c4}. */
    String idPart() {
      return "p" + promptTokens + "-o" + maxTokens + "-c" + concurrency;
    }
  }

  /** Every cell, in the order they run. */
  public List<Cell> cells() {
    List<Cell> cells = new ArrayList<>();
    for (int prompt : prompts) {
      for (int output : outputs) {
        for (int concurrency : concurrencies) {
          cells.add(new Cell(prompt, output, concurrency));
        }
      }
    }
    return cells;
  }

  /**
   * Parses {@code --matrix} values such as {@code output=64,512,2048} and {@code
   * concurrency=1,4,8,16}; a dimension not given takes its single default.
   *
   * @throws IllegalArgumentException naming the bad value
   */
  public static Matrix parse(
      List<String> specs, int promptTokens, int maxTokens, int concurrency, int rounds) {
    Map<String, List<Integer>> values = new LinkedHashMap<>();
    values.put("prompt", List.of(promptTokens));
    values.put("output", List.of(maxTokens));
    values.put("concurrency", List.of(concurrency));
    List<String> seen = new ArrayList<>();
    for (String spec : specs) {
      int equals = spec.indexOf('=');
      String name = equals < 0 ? spec : spec.substring(0, equals).strip().toLowerCase(Locale.ROOT);
      if (equals < 0 || !DIMENSIONS.contains(name)) {
        throw new IllegalArgumentException(
            "--matrix: '"
                + spec
                + "' is not DIMENSION=V1,V2,... with DIMENSION one of "
                + DIMENSIONS);
      }
      if (seen.contains(name)) {
        throw new IllegalArgumentException("--matrix: " + name + " given twice");
      }
      seen.add(name);
      List<Integer> levels = new ArrayList<>();
      for (String part : spec.substring(equals + 1).split(",", -1)) {
        try {
          int value = Integer.parseInt(part.strip());
          if (value < 1) {
            throw new NumberFormatException();
          }
          if (levels.contains(value)) {
            throw new IllegalArgumentException("--matrix: " + name + " " + value + " given twice");
          }
          levels.add(value);
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException(
              "--matrix: " + name + " values must be integers >= 1: '" + part.strip() + "'");
        }
      }
      values.put(name, levels);
    }
    return new Matrix(
        values.get("prompt"), values.get("output"), values.get("concurrency"), rounds);
  }
}
