package dev.tokentrace.parse.gpu;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The fuzz inputs of the GPU parser (lines of every tool's format, composed by us from
 * docs/formats/gpu.md, and fixed-seed random mutations of them), for the line-accounting property
 * over all sources ({@code LineAccountingTest}).
 */
public final class GpuFuzzCorpus {
  private static final String[] NOISE = {
    "", ",", ", ", " ", "#", "[N/A]", "-", "\"", "{", "}", "=", "\\", "NaN", "+Inf", "\u0000", "é"
  };

  static final List<String> SEEDS =
      List.of(
          "timestamp, index, uuid, utilization.gpu [%], memory.used [MiB], power.draw [W]",
          "2026/12/01 10:00:00.123, 0, GPU-1, 87 %, 70000 MiB, 305.50 W",
          "2026/12/01 10:00:00.123, 0, GPU-1, [N/A], [Not Supported], 70,5 W",
          "timestamp, gpu_uuid, pid, process_name, used_gpu_memory [MiB]",
          "2026/12/01 10:00:00.000, GPU-1, 4242, python3, 20480 MiB",
          "Unable to determine the device handle for GPU0000:3B:00.0: Unknown Error",
          "# gpu    pwr  gtemp  mtemp     sm    mem    enc    dec    mclk    pclk",
          "# Idx      W      C      C      %      %      %      %     MHz     MHz",
          "    0     43     48      -     12      5      0      0    3505     936",
          "#Date       Time        gpu        pid  type    sm   mem   enc   dec   command",
          " 20261201   10:00:05      0       4242     C    45    20     -     -   python3",
          "# HELP DCGM_FI_DEV_GPU_UTIL GPU utilization (in %).",
          "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"GPU-1\",Hostname=\"h\"} 87 1764583200000",
          "DCGM_FI_DEV_FB_USED{gpu=\"0\",UUID=\"GPU-1\",modelName=\"a \\\"b\\\"\"} 70000");

  private GpuFuzzCorpus() {}

  /** The seed lines followed by {@code rounds} mutated copies of each, from a fixed seed. */
  public static List<String> lines(int rounds) {
    List<String> lines = new ArrayList<>(SEEDS);
    Random random = new Random(20261201L);
    for (int round = 0; round < rounds; round++) {
      for (String seed : SEEDS) {
        String text = seed;
        for (int i = 1 + random.nextInt(3); i > 0; i--) {
          text = mutate(text, random);
        }
        lines.add(text);
      }
    }
    return lines;
  }

  private static String mutate(String text, Random random) {
    int at = text.isEmpty() ? 0 : random.nextInt(text.length() + 1);
    String noise = NOISE[random.nextInt(NOISE.length)];
    switch (random.nextInt(4)) {
      case 0:
        return text.substring(0, at);
      case 1:
        return text.substring(0, at) + noise + text.substring(at);
      case 2:
        return at < text.length() ? text.substring(0, at) + noise + text.substring(at + 1) : text;
      default:
        return text + text.substring(at);
    }
  }
}
