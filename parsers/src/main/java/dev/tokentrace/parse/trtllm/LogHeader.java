package dev.tokentrace.parse.trtllm;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * The prefix of one logger line, taken apart (docs/formats/trtllm.md#logger-lines).
 *
 * @param level the severity spelled out ({@code INFO}, {@code WARNING}, {@code ERROR}, {@code
 *     FATAL}, {@code DEBUG}, {@code VERBOSE}, {@code TRACE})
 * @param ts the logged time in UTC; null for C++ lines, which carry none in any version
 * @param rank the rank tag as {@code RANK n}, or null
 * @param message what follows the prefix
 * @param origin who wrote the prefix; only {@link Origin#TRT} is TensorRT-LLM-specific
 */
record LogHeader(
    String level, @Nullable Instant ts, @Nullable String rank, String message, Origin origin) {

  /** Who wrote a logger line. */
  enum Origin {
    /** TensorRT-LLM's C++ or Python logger (or TensorRT's {@code [TRT]}). */
    TRT,
    /** Triton server's glog lines (docs/formats/trtllm.md#triton-lines). */
    TRITON,
    /**
     * uvicorn under trtllm-serve, as under vLLM and SGLang (docs/formats/trtllm.md#uvicorn-lines).
     */
    UVICORN
  }

  boolean trtSpecific() {
    return origin == Origin.TRT;
  }

  boolean isError() {
    return level.equals("ERROR") || level.equals("FATAL");
  }

  boolean isWarning() {
    return level.equals("WARNING");
  }

  boolean isInfo() {
    return level.equals("INFO");
  }
}
