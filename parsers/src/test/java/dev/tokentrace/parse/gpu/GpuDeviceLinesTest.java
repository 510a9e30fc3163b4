package dev.tokentrace.parse.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The engines' startup lines that name their GPUs, composed by us in the shapes of
 * docs/formats/gpu.md#gpus-learned-from-startup-lines.
 */
final class GpuDeviceLinesTest {
  @Test
  void tensorRtLlmRankLineNamesOneGpu() {
    GpuDeviceLines.Devices devices =
        GpuDeviceLines.read("[TensorRT-LLM][INFO] Rank 1 is using GPU 3");
    assertThat(devices).isNotNull();
    assertThat(devices.ordinals()).containsExactly(3);
    assertThat(devices.problem()).isNull();
    assertThat(GpuDeviceLines.read("[TensorRT-LLM][INFO][1] Rank 1 is using GPU 1").ordinals())
        .containsExactly(1);
  }

  @Test
  void sglangServerArgsGiveEveryRanksGpu() {
    String args =
        "[2026-03-02 09:00:00] server_args=ServerArgs(model_path='/models/llama', tp_size=2,"
            + " pp_size=1, dp_size=1, nnodes=1, node_rank=0, base_gpu_id=2, gpu_id_step=1,"
            + " enable_dp_attention=False, mem_fraction_static=0.88)";
    assertThat(GpuDeviceLines.read(args).ordinals()).containsExactly(2, 3);
    assertThat(GpuDeviceLines.read(args.replace("gpu_id_step=1", "gpu_id_step=2")).ordinals())
        .containsExactly(2, 4);
    // data-parallel replicas without DP attention: one TP group after the other
    assertThat(GpuDeviceLines.read(args.replace("dp_size=1", "dp_size=2")).ordinals())
        .containsExactly(2, 3, 4, 5);
    assertThat(
            GpuDeviceLines.read(
                    args.replace("dp_size=1", "dp_size=2")
                        .replace("enable_dp_attention=False", "enable_dp_attention=True"))
                .ordinals())
        .containsExactly(2, 3);
    assertThat(GpuDeviceLines.read(args.replace("pp_size=1", "pp_size=2")).ordinals())
        .containsExactly(2, 3, 4, 5);
  }

  @Test
  void defaultsApplyWhereTheArgumentIsMissingAndSeveralNodesAreNotGuessed() {
    assertThat(GpuDeviceLines.read("server_args=ServerArgs(tp_size=1)").ordinals())
        .containsExactly(0);
    GpuDeviceLines.Devices nodes =
        GpuDeviceLines.read("server_args=ServerArgs(tp_size=8, nnodes=2, base_gpu_id=0)");
    assertThat(nodes.ordinals()).isEmpty();
    assertThat(nodes.problem()).contains("nnodes=2");
    assertThat(
            GpuDeviceLines.read("server_args=ServerArgs(model_path='/m', dtype='auto'").problem())
        .contains("no tp_size");
  }

  @Test
  void oldSglangTagsNameTheGpuAndOtherLinesNothing() {
    assertThat(GpuDeviceLines.read("[gpu_id=1] Decode batch. #running-req: 3").ordinals())
        .containsExactly(1);
    assertThat(GpuDeviceLines.read("[gpu=0] Prefill batch. #new-seq: 1").ordinals())
        .containsExactly(0);
    assertThat(
            GpuDeviceLines.read(
                "INFO 03-02 09:00:00 [gpu_worker.py:100] Model loading took 15.0 GiB"))
        .isNull();
  }
}
