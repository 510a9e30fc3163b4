package dev.tokentrace.parse.gpu;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The startup lines in which an engine says which GPUs it runs on
 * (docs/formats/gpu.md#gpus-learned-from-startup-lines): TensorRT-LLM's C++ runtime {@code Rank R
 * is using GPU G}, SGLang's {@code server_args=ServerArgs(…)} ({@code base_gpu_id}, {@code
 * gpu_id_step}, {@code tp_size}, {@code pp_size}, {@code dp_size}, {@code nnodes}) and SGLang ≤
 * 0.2's {@code [gpu_id=N]} / {@code [gpu=N]} message tags. Each gives CUDA device ordinals, which
 * are relative to {@code CUDA_VISIBLE_DEVICES}: equal to nvidia-smi's index only when that variable
 * is unset (or lists the GPUs from 0 in order). vLLM prints no such line. Stateless.
 */
public final class GpuDeviceLines {
  private static final Pattern TRTLLM = Pattern.compile("\\bRank (\\d+) is using GPU (\\d+)\\b");
  private static final Pattern SGLANG_TAG = Pattern.compile("\\[gpu(?:_id)?=(\\d+)\\] ");
  private static final Pattern SERVER_ARGS = Pattern.compile("\\bserver_args=ServerArgs\\(");

  /**
   * What one line says.
   *
   * @param ordinals the CUDA device ordinals the engine uses
   * @param shape which line shape said it, for messages
   * @param problem why a recognised line gives no ordinals (e.g. several nodes), else null
   */
  public record Devices(List<Integer> ordinals, String shape, @Nullable String problem) {
    public Devices {
      ordinals = List.copyOf(ordinals);
    }
  }

  private GpuDeviceLines() {}

  /** The devices a startup line names, or null for any other line. */
  public static @Nullable Devices read(String line) {
    Matcher trtllm = TRTLLM.matcher(line);
    if (trtllm.find()) {
      return new Devices(
          List.of(Integer.parseInt(trtllm.group(2))), "TensorRT-LLM 'Rank R is using GPU G'", null);
    }
    if (SERVER_ARGS.matcher(line).find()) {
      return serverArgs(line);
    }
    Matcher tag = SGLANG_TAG.matcher(line);
    if (tag.find() && tag.start() < 64) {
      return new Devices(
          List.of(Integer.parseInt(tag.group(1))), "SGLang <= 0.2 '[gpu_id=N]' tag", null);
    }
    return null;
  }

  /**
   * SGLang's scheduler processes: GPU {@code base_gpu_id + (pp_rank × tp_size) + tp_rank ×
   * gpu_id_step} on one node, and each data-parallel replica (without DP attention) after the one
   * before ({@code base_gpu_id} advanced by {@code tp_size × pp_size × gpu_id_step}).
   */
  private static Devices serverArgs(String line) {
    String shape = "SGLang 'server_args=ServerArgs(…)'";
    Integer tp = integer(line, "tp_size");
    if (tp == null) {
      return new Devices(List.of(), shape, "no tp_size in the line (cut short?)");
    }
    int base = orDefault(integer(line, "base_gpu_id"), 0);
    int step = orDefault(integer(line, "gpu_id_step"), 1);
    int pp = orDefault(integer(line, "pp_size"), 1);
    int dp = orDefault(integer(line, "dp_size"), 1);
    int nodes = orDefault(integer(line, "nnodes"), 1);
    if (nodes != 1) {
      return new Devices(
          List.of(), shape, "nnodes=" + nodes + ": which GPUs each node uses is not printed");
    }
    boolean dpAttention =
        "true".equals(value(line, "enable_dp_attention").toLowerCase(Locale.ROOT));
    int replicas = dp > 1 && !dpAttention ? dp : 1;
    List<Integer> ordinals = new ArrayList<>();
    for (int replica = 0; replica < replicas; replica++) {
      int replicaBase = base + replica * tp * pp * step;
      for (int ppRank = 0; ppRank < pp; ppRank++) {
        for (int tpRank = 0; tpRank < tp; tpRank++) {
          ordinals.add(replicaBase + ppRank * tp + tpRank * step);
        }
      }
    }
    return new Devices(ordinals, shape, null);
  }

  private static int orDefault(@Nullable Integer value, int fallback) {
    return value == null ? fallback : value;
  }

  private static @Nullable Integer integer(String line, String key) {
    String value = value(line, key);
    try {
      return value.isEmpty() ? null : Integer.valueOf(value);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** The value of {@code key=value} in the ServerArgs repr (up to the next comma or paren). */
  private static String value(String line, String key) {
    Matcher matcher = Pattern.compile("[(, ]" + key + "=([^,)]*)").matcher(line);
    return matcher.find() ? matcher.group(1).strip().replace("'", "") : "";
  }
}
