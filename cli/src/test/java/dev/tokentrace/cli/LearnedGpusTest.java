package dev.tokentrace.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.event.Engine;
import dev.tokentrace.ingest.SourceFile;
import dev.tokentrace.parse.GpuMap;
import dev.tokentrace.parse.ParseSettings;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code --learn-gpu-map}: the GPU telemetry of a host with two engines gets each GPU's instance
 * from the engines' startup lines (composed by us in the shapes of
 * docs/formats/gpu.md#gpus-learned-from-startup-lines); {@code --gpu-map} wins, and every conflict
 * is said, never resolved in silence.
 */
final class LearnedGpusTest {
  @TempDir Path dir;

  /** Refused before anything is read: the message says why and what to give instead. */
  @Test
  void followRefusesALearnedMapAndNamesGpuMapInstead() {
    for (String command : List.of("ingest", "ship")) {
      StringWriter err = new StringWriter();
      CommandLine line = TokentraceMain.commandLine();
      line.setErr(new PrintWriter(err, true));
      line.setOut(new PrintWriter(new StringWriter(), true));
      int code =
          line.execute(command, "--follow", "--learn-gpu-map", dir.resolve("gpu.csv").toString());
      assertThat(code).as(err.toString()).isEqualTo(2);
      assertThat(err.toString())
          .contains("--learn-gpu-map cannot be used with --follow")
          .contains("give --gpu-map GPUS=INSTANCE");
    }
  }

  @Test
  void learnsEachEnginesGpusFromItsStartupLines() throws IOException {
    List<SourceFile> files = files("[TensorRT-LLM][INFO] Rank 0 is using GPU 1");
    LearnedGpus.Result result = LearnedGpus.apply(files, GpuMap.NONE);

    assertThat(gpuMap(result).instances()).containsEntry("0", "sgl-a").containsEntry("1", "trt-b");
    assertThat(result.messages())
        .anyMatch(
            m -> m.startsWith("gpu-map: learned GPU 0=sgl-a from ") && m.endsWith("sgl.log:2"))
        .anyMatch(m -> m.startsWith("gpu-map: learned GPU 1=trt-b from "));
    assertThat(gpuMap(result).instanceOf(1, null, "node-7")).isEqualTo("trt-b");
    assertThat(gpuMap(result).instanceOf(2, null, "node-7")).isEqualTo("node-7");
  }

  @Test
  void anExplicitMapWinsAndTheConflictIsSaid() throws IOException {
    List<SourceFile> files = files("[TensorRT-LLM][INFO] Rank 0 is using GPU 1");
    LearnedGpus.Result result = LearnedGpus.apply(files, GpuMap.parse(List.of("1=other")));

    assertThat(gpuMap(result).instances()).containsEntry("1", "other").containsEntry("0", "sgl-a");
    assertThat(result.messages())
        .anyMatch(
            m ->
                m.startsWith("gpu-map: conflict: --gpu-map gives GPU 1 to other")
                    && m.endsWith("to trt-b; --gpu-map kept"));
  }

  @Test
  void aGpuTwoEnginesClaimIsNotLearned() throws IOException {
    List<SourceFile> files = files("[TensorRT-LLM][INFO] Rank 0 is using GPU 0");
    LearnedGpus.Result result = LearnedGpus.apply(files, GpuMap.NONE);

    assertThat(gpuMap(result).instances()).doesNotContainKey("0");
    assertThat(result.messages())
        .anyMatch(
            m ->
                m.startsWith("gpu-map: conflict: GPU 0 is claimed by sgl-a")
                    && m.endsWith("not learned, give --gpu-map"));
  }

  /** An SGLang log on GPU 0, a TensorRT-LLM log with {@code trtllmLine}, and one GPU file. */
  private List<SourceFile> files(String trtllmLine) throws IOException {
    Path sglang =
        Files.writeString(
            dir.resolve("sgl.log"),
            "[2026-03-02 09:00:00] Starting server\n"
                + "[2026-03-02 09:00:00] server_args=ServerArgs(model_path='/m', tp_size=1,"
                + " pp_size=1, dp_size=1, nnodes=1, base_gpu_id=0, gpu_id_step=1)\n",
            UTF_8);
    Path trtllm =
        Files.writeString(
            dir.resolve("trt.log"),
            "[TensorRT-LLM][INFO] MPI size: 1, rank: 0\n" + trtllmLine + "\n",
            UTF_8);
    Path gpus = Files.writeString(dir.resolve("gpus.csv"), "timestamp, index\n", UTF_8);
    return List.of(
        new SourceFile(sglang, Engine.SGLANG, settings("sgl-a")),
        new SourceFile(trtllm, Engine.TRTLLM, settings("trt-b")),
        new SourceFile(gpus, Engine.GPU, settings("node-7")));
  }

  private static ParseSettings settings(String instance) {
    return new ParseSettings(instance, ZoneOffset.UTC, 2026);
  }

  private static GpuMap gpuMap(LearnedGpus.Result result) {
    return result.files().stream()
        .filter(file -> file.engine() == Engine.GPU)
        .findFirst()
        .orElseThrow()
        .parse()
        .gpuMap();
  }
}
