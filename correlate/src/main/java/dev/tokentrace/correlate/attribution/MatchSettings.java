package dev.tokentrace.correlate.attribution;

import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * How client requests are paired with server requests ({@code correlate --match}). By ID only, the
 * default; or also {@code heuristic}: client rows whose ID the server never saw (SGLang bench,
 * LLMPerf, GuideLLM without response IDs, vLLM bench without the prefix, any client against SGLang
 * or TensorRT-LLM) are paired one to one with unpaired server requests by time window and token
 * counts ({@code sql/attribution/heuristic_candidates.sql}), and labelled heuristic everywhere.
 *
 * @param mode {@link Mode#ID} or {@link Mode#HEURISTIC}
 * @param windowMs largest gap between a client's send time (on the server clock) and a server
 *     arrival
 * @param outputTokenTolerance allowed output-token difference (or 2 percent, whichever is larger)
 * @param promptTokenTolerance allowed prompt-token difference (or 5%); chat templates add tokens
 */
public record MatchSettings(
    Mode mode, double windowMs, int outputTokenTolerance, int promptTokenTolerance) {
  /** {@code --match} values. */
  public enum Mode {
    ID,
    HEURISTIC;

    public String id() {
      return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The mode for a CLI value.
     *
     * @throws IllegalArgumentException naming the known values
     */
    public static Mode fromId(String value) {
      for (Mode mode : values()) {
        if (mode.id().equals(value.strip().toLowerCase(Locale.ROOT))) {
          return mode;
        }
      }
      throw new IllegalArgumentException("unknown --match '" + value + "' (known: id, heuristic)");
    }
  }

  public static final String MODE_DOC =
      "id: pair client and server requests by request ID only; heuristic: also pair requests whose"
          + " ID the server never saw, one to one by time window and token counts (labelled"
          + " heuristic in every output)";
  public static final Mode MODE_DEFAULT = Mode.ID;

  public static final String WINDOW_MS_DOC =
      "--match heuristic: largest gap between the client's send time (on the server clock) and the"
          + " server's arrival time; also how far from the client's send a retried request's final"
          + " attempt may arrive";
  public static final double WINDOW_MS_DEFAULT = 1000.0;

  public static final String OUTPUT_TOKEN_TOLERANCE_DOC =
      "--match heuristic: allowed output-token difference (or 2 percent, whichever is larger)";
  public static final int OUTPUT_TOKEN_TOLERANCE_DEFAULT = 1;

  public static final String PROMPT_TOKEN_TOLERANCE_DOC =
      "--match heuristic: allowed prompt-token difference (or 5 percent, whichever is larger); chat"
          + " templates add tokens on the server";
  public static final int PROMPT_TOKEN_TOLERANCE_DEFAULT = 32;

  public MatchSettings {
    if (mode == null) {
      throw new IllegalArgumentException("mode is null");
    }
    if (!(windowMs > 0) || Double.isInfinite(windowMs)) {
      throw new IllegalArgumentException("--match-window-ms must be finite and > 0: " + windowMs);
    }
    if (outputTokenTolerance < 0) {
      throw new IllegalArgumentException(
          "--match-output-tokens must be >= 0: " + outputTokenTolerance);
    }
    if (promptTokenTolerance < 0) {
      throw new IllegalArgumentException(
          "--match-prompt-tokens must be >= 0: " + promptTokenTolerance);
    }
  }

  /** Pairing by ID only. */
  public static MatchSettings defaults() {
    return from(null, null, null, null);
  }

  /** The settings the CLI options give; null options take the defaults. */
  public static MatchSettings from(
      @Nullable String mode,
      @Nullable Double windowMs,
      @Nullable Integer outputTokenTolerance,
      @Nullable Integer promptTokenTolerance) {
    return new MatchSettings(
        mode == null ? MODE_DEFAULT : Mode.fromId(mode),
        windowMs == null ? WINDOW_MS_DEFAULT : windowMs,
        outputTokenTolerance == null ? OUTPUT_TOKEN_TOLERANCE_DEFAULT : outputTokenTolerance,
        promptTokenTolerance == null ? PROMPT_TOKEN_TOLERANCE_DEFAULT : promptTokenTolerance);
  }

  public boolean heuristic() {
    return mode == Mode.HEURISTIC;
  }
}
