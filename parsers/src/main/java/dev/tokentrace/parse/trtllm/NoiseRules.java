package dev.tokentrace.parse.trtllm;

import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Named rules for lines in a TensorRT-LLM log that are neither logger lines nor JSON and carry
 * nothing for the event model: Triton's ASCII tables (docs/formats/trtllm.md#triton-lines), the
 * NVIDIA container banner, NCCL lines, progress bars (checkpoint loading, warm-up). Anything not
 * named here is rejected.
 */
final class NoiseRules {
  static final String PYTHON_WARNING_RULE = "trtllm: python warning";

  private static final Pattern PYTHON_WARNING =
      Pattern.compile("^\\S+\\.py:\\d+: [A-Za-z]*Warning: .*");

  private static final String[] BANNER_STARTS = {
    "==",
    "**",
    "NVIDIA Release ",
    "Copyright (c)",
    "Copyright 20",
    "Container image Copyright",
    "This container image and its contents are governed",
    "A copy of this license is made available",
    "By pulling and using the container",
    "Various files include modifications",
    "https://developer.nvidia.com",
    "NOTE: ",
    "WARNING: The NVIDIA Driver",
    "ERROR: No supported GPU"
  };

  private NoiseRules() {}

  /** The rule that names {@code line}, or null. */
  static @Nullable String rule(String line) {
    char first = line.charAt(0);
    if (first == '+' || first == '|') {
      return "trtllm: triton table";
    }
    for (String start : BANNER_STARTS) {
      if (line.startsWith(start)) {
        return "trtllm: container banner";
      }
    }
    if (line.contains(" NCCL INFO ") || line.contains(" NCCL WARN ")) {
      return "trtllm: nccl message";
    }
    if (line.contains("%|") || line.contains("it/s]") || line.contains("s/it]")) {
      return "trtllm: progress bar";
    }
    return null;
  }

  /** {@code /x/y.py:12: UserWarning: text}, printed by Python's warnings module. */
  static boolean isPythonWarning(String line) {
    return line.indexOf(".py:") > 0 && PYTHON_WARNING.matcher(line).matches();
  }
}
