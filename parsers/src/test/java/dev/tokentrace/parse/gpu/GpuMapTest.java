package dev.tokentrace.parse.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.parse.GpuMap;
import dev.tokentrace.parse.ParseOutput;
import dev.tokentrace.parse.ParseSettings;
import dev.tokentrace.parse.Rejection;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * One nvidia-smi file holding the GPUs of several engines: {@code --gpu-map} stamps each GPU's
 * events with its instance, by index or UUID; a GPU it does not name keeps the file's instance.
 */
final class GpuMapTest {
  private static final String UUID_2 = "GPU-a8e93b72-1c5d-4e08-b6f4-3d2a9c71e505";

  @Test
  void mapsGpusByIndexAndByUuidAndKeepsTheUnmappedOnes() {
    GpuMap map = GpuMap.parse(List.of("0,1=vllm-a", UUID_2.toUpperCase() + "=vllm-b"));
    GpuLineParser parser =
        new GpuLineParser(new ParseSettings("host-7", ZoneOffset.UTC, 2026, map));
    List<String> lines =
        List.of(
            "timestamp, index, uuid, utilization.gpu [%]",
            "2026/12/01 10:00:00.000, 0, GPU-00000000-0000-0000-0000-000000000000, 87 %",
            "2026/12/01 10:00:00.000, 1, GPU-11111111-1111-1111-1111-111111111111, 80 %",
            "2026/12/01 10:00:00.000, 2, " + UUID_2 + ", 12 %",
            "2026/12/01 10:00:00.000, 3, GPU-33333333-3333-3333-3333-333333333333, 0 %",
            "timestamp, gpu_uuid, pid, process_name, used_gpu_memory [MiB]",
            "2026/12/01 10:00:00.000, " + UUID_2 + ", 3377, /opt/jobs/train, 9216 MiB");
    List<String> instances = new ArrayList<>();
    ParseOutput out =
        new ParseOutput() {
          @Override
          public void event(EngineEvent event) {
            instances.add(event.instance());
          }

          @Override
          public void ignored(SourcePosition position, String rule) {}

          @Override
          public void rejected(Rejection rejection) {
            throw new AssertionError(rejection.reason());
          }
        };
    long line = 1;
    for (String text : lines) {
      parser.parse(text, new SourcePosition("gpus.csv", line++, 0), out);
    }
    parser.finish(out);
    assertThat(instances).containsExactly("vllm-a", "vllm-a", "vllm-b", "host-7", "vllm-b");
  }

  @Test
  void rejectsASpecWithoutInstanceAndAGpuGivenTwice() {
    assertThatThrownBy(() -> GpuMap.parse(List.of("0,1")))
        .hasMessageContaining("--gpu-map '0,1': expected GPUS=INSTANCE");
    assertThatThrownBy(() -> GpuMap.parse(List.of("0=a", "0=b")))
        .hasMessageContaining("GPU 0 mapped to both a and b");
  }
}
