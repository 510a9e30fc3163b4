package dev.tokentrace.parse.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.GpuProcess;
import dev.tokentrace.event.GpuSample;
import dev.tokentrace.event.ServerNotice;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.parse.ParseOutput;
import dev.tokentrace.parse.ParseSettings;
import dev.tokentrace.parse.Parsers;
import dev.tokentrace.parse.Rejection;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Lines composed by us from the documented nvidia-smi and DCGM exporter formats
 * (docs/formats/gpu.md), one outcome per line.
 */
final class GpuLineParserTest {
  private static final ParseSettings SETTINGS = ParseSettings.of("vllm-0", 2026);

  private static final String UUID = "GPU-11111111-2222-3333-4444-555555555555";

  @Test
  void readsQueryGpuCsvWithUnits() {
    Outcomes out =
        run(
            "timestamp, index, uuid, utilization.gpu [%], utilization.memory [%], memory.used"
                + " [MiB], memory.total [MiB], power.draw [W], clocks.current.sm [MHz],"
                + " temperature.gpu",
            "2026/12/01 10:00:00.123, 0, "
                + UUID
                + ", 87 %, 40 %, 70000 MiB, 81920 MiB, 305.50 W,"
                + " 1410 MHz, 61");
    assertThat(out.byLine.get(1L)).isEqualTo("ignored: " + GpuLineParser.CSV_HEADER);
    GpuSample sample = (GpuSample) out.events.get(0);
    assertThat(sample)
        .isEqualTo(
            new GpuSample(
                Engine.GPU,
                "vllm-0",
                Instant.parse("2026-12-01T10:00:00.123Z"),
                sample.source(),
                "query-gpu",
                null,
                0,
                UUID,
                87.0,
                40.0,
                70000.0,
                81920.0,
                305.5,
                1410.0,
                61.0,
                null,
                null));
  }

  @Test
  void readsAnyFieldSubsetWithNounitsAndRestartedLoopsWithOtherFields() {
    Outcomes out =
        run(
            "index, utilization.gpu, memory.used",
            "1, 12, 2048",
            "timestamp, power.draw.instant, index",
            "2026/12/01 10:00:01.000, 250.25, 3");
    GpuSample first = (GpuSample) out.events.get(0);
    assertThat(first.gpuIndex()).isEqualTo(1);
    assertThat(first.utilGpuPct()).isEqualTo(12.0);
    assertThat(first.memUsedMib()).isEqualTo(2048.0);
    assertThat(first.ts()).isNull();
    GpuSample second = (GpuSample) out.events.get(1);
    assertThat(second.gpuIndex()).isEqualTo(3);
    assertThat(second.powerW()).isEqualTo(250.25);
    assertThat(second.utilGpuPct()).isNull();
    assertThat(out.lines()).isEqualTo(4);
  }

  @Test
  void keepsPlaceholdersAsNullsNamedInUnavailable() {
    Outcomes out =
        run(
            "timestamp, index, utilization.gpu [%], power.draw [W], temperature.gpu",
            "2026/12/01 10:00:00.000, 0, [N/A], [Not Supported], [Unknown Error]",
            "2026/12/01 10:00:01.000, 0, [GPU requires reset], 70.00 W, 40");
    GpuSample sample = (GpuSample) out.events.get(0);
    assertThat(sample.utilGpuPct()).isNull();
    assertThat(sample.powerW()).isNull();
    assertThat(sample.unavailable())
        .isEqualTo(
            "utilization.gpu=[N/A] power.draw=[Not Supported] temperature.gpu=[Unknown Error]");
    assertThat(((GpuSample) out.events.get(1)).unavailable())
        .isEqualTo("utilization.gpu=[GPU requires reset]");
  }

  @Test
  void aGpuFallingOffTheBusIsAnErrorNoticeAfterTheLastSample() {
    Outcomes out =
        run(
            "timestamp, index, utilization.gpu [%]",
            "2026/12/01 10:00:00.000, 0, 50 %",
            "Unable to determine the device handle for GPU0000:3B:00.0: Unknown Error",
            "2026/12/01 10:00:01.000, 1, 51 %");
    ServerNotice notice = (ServerNotice) out.events.get(1);
    assertThat(notice.kind()).isEqualTo(ServerNotice.Kind.ERROR);
    assertThat(notice.ts()).isEqualTo(Instant.parse("2026-12-01T10:00:00Z"));
    assertThat(notice.message()).contains("GPU0000:3B:00.0: Unknown Error");
    assertThat(out.events).hasSize(3);
  }

  @Test
  void readsADecimalCommaThatHasNoBlankAfterIt() {
    Outcomes out = run("timestamp, index, power.draw [W]", "2026/12/01 10:00:00.000, 0, 70,5 W");
    assertThat(((GpuSample) out.events.get(0)).powerW()).isEqualTo(70.5);
  }

  @Test
  void rejectsBadCsvRowsWithTheirReason() {
    Outcomes out =
        run(
            "0, 12, 2048",
            "timestamp, index, utilization.gpu [%]",
            "2026/12/01 10:00:00.000, 0",
            "yesterday, 0, 5 %",
            "2026/12/01 10:00:00.000, 0, lots",
            "2026/12/01 10:00:00.000, 0, -5 %",
            "2026/12/01 10:00:00.000, 0, NaN %");
    assertThat(out.byLine)
        .containsEntry(
            1L, "rejected: csv: csv row before any header (noheader output: keep the header line)")
        .containsEntry(3L, "rejected: csv: 2 fields, the header has 3")
        .containsEntry(4L, "rejected: csv: bad timestamp 'yesterday'")
        .containsEntry(5L, "rejected: csv: utilization.gpu: bad number 'lots'")
        .containsEntry(6L, "rejected: csv: utilization.gpu is negative: -5.0")
        .containsEntry(7L, "rejected: csv: utilization.gpu: bad number 'NaN %'");
  }

  @Test
  void readsComputeApps() {
    Outcomes out =
        run(
            "timestamp, gpu_uuid, pid, process_name, used_gpu_memory [MiB]",
            "2026/12/01 10:00:00.000, " + UUID + ", 4242, python3, 20480 MiB",
            "2026/12/01 10:00:00.000, " + UUID + ", 777, trainer, [N/A]");
    GpuProcess engine = (GpuProcess) out.events.get(0);
    assertThat(engine.pid()).isEqualTo(4242L);
    assertThat(engine.processName()).isEqualTo("python3");
    assertThat(engine.usedMemMib()).isEqualTo(20480.0);
    assertThat(engine.gpuUuid()).isEqualTo(UUID);
    assertThat(engine.tool()).isEqualTo("compute-apps");
    assertThat(((GpuProcess) out.events.get(1)).usedMemMib()).isNull();
  }

  @Test
  void readsDmonWithAndWithoutDateTime() {
    Outcomes out =
        run(
            "# gpu    pwr  gtemp  mtemp     sm    mem    enc    dec    mclk    pclk",
            "# Idx      W      C      C      %      %      %      %     MHz     MHz",
            "    0     43     48      -     12      5      0      0    3505     936",
            "#Date       Time        gpu    pwr  gtemp     sm    mem     fb",
            "#YYYYMMDD   HH:MM:SS    Idx      W      C      %      %     MB",
            " 20261201   10:00:05      1    250     61     97     40  70000",
            " 20261201   10:00:06      1    250     61     97     40");
    assertThat(out.byLine.get(1L)).isEqualTo("ignored: " + GpuLineParser.DMON_HEADER);
    assertThat(out.byLine.get(2L)).isEqualTo("ignored: " + GpuLineParser.DMON_HEADER);
    GpuSample plain = (GpuSample) out.events.get(0);
    assertThat(plain.ts()).isNull();
    assertThat(plain.powerW()).isEqualTo(43.0);
    assertThat(plain.utilGpuPct()).isEqualTo(12.0);
    assertThat(plain.smClockMhz()).isEqualTo(936.0);
    assertThat(plain.unavailable()).isNull();
    GpuSample dated = (GpuSample) out.events.get(1);
    assertThat(dated.ts()).isEqualTo(Instant.parse("2026-12-01T10:00:05Z"));
    assertThat(dated.gpuIndex()).isEqualTo(1);
    assertThat(dated.memUsedMib()).isEqualTo(70000.0);
    assertThat(out.byLine.get(7L)).isEqualTo("rejected: dmon: 7 fields, the header has 8");
  }

  @Test
  void readsPmonRowsAndIgnoresIdleGpus() {
    Outcomes out =
        run(
            "#Date       Time        gpu        pid  type    sm   mem   enc   dec   command",
            "#YYYYMMDD   HH:MM:SS    Idx          #   C/G     %     %     %     %   name",
            " 20261201   10:00:05      0       4242     C    45    20     -     -   python3",
            " 20261201   10:00:05      1          -     -     -     -     -     -   -");
    GpuProcess process = (GpuProcess) out.events.get(0);
    assertThat(process.tool()).isEqualTo("pmon");
    assertThat(process.pid()).isEqualTo(4242L);
    assertThat(process.smPct()).isEqualTo(45.0);
    assertThat(process.memPct()).isEqualTo(20.0);
    assertThat(process.processType()).isEqualTo("C");
    assertThat(process.processName()).isEqualTo("python3");
    assertThat(out.byLine.get(4L)).isEqualTo("ignored: " + GpuLineParser.NO_PROCESS);
  }

  @Test
  void foldsADcgmScrapeIntoOneSamplePerGpu() {
    String labels0 =
        "{gpu=\"0\",UUID=\""
            + UUID
            + "\",device=\"nvidia0\",modelName=\"NVIDIA \\\"X\\\" 80GB\","
            + "Hostname=\"node-1\",pod=\"vllm-0\"}";
    String labels1 = "{gpu=\"1\",UUID=\"GPU-2\",Hostname=\"node-1\"}";
    Outcomes out =
        run(
            "# HELP DCGM_FI_DEV_GPU_UTIL GPU utilization (in %).",
            "# TYPE DCGM_FI_DEV_GPU_UTIL gauge",
            "DCGM_FI_DEV_GPU_UTIL" + labels0 + " 87 1764583200000",
            "DCGM_FI_DEV_GPU_UTIL" + labels1 + " 5 1764583200000",
            "DCGM_FI_DEV_FB_USED" + labels0 + " 70000 1764583200000",
            "DCGM_FI_DEV_FB_FREE" + labels0 + " 11920 1764583200000",
            "DCGM_FI_PROF_SM_ACTIVE" + labels0 + " 0.75 1764583200000",
            "DCGM_FI_DEV_GPU_TEMP" + labels0 + " 9223372036854775794",
            "DCGM_FI_DEV_POWER_USAGE" + labels0 + " NaN 1764583200000",
            "DCGM_FI_DEV_POWER_USAGE" + labels1 + " +Inf",
            "DCGM_FI_DEV_GPU_UTIL" + labels0 + " 90 1764583201000",
            "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"bad} 1",
            "vllm:num_requests_running{model_name=\"m\"} 3",
            "DCGM_FI_DEV_XID_ERRORS{gpu=\"0\", UUID=\"GPU-1\"} 0");
    assertThat(out.events).hasSize(3);
    GpuSample gpu0 = (GpuSample) out.events.get(0);
    assertThat(gpu0.source().line()).isEqualTo(3);
    assertThat(gpu0.ts()).isEqualTo(Instant.ofEpochMilli(1764583200000L));
    assertThat(gpu0.host()).isEqualTo("node-1");
    assertThat(gpu0.gpuIndex()).isZero();
    assertThat(gpu0.utilGpuPct()).isEqualTo(87.0);
    assertThat(gpu0.memTotalMib()).isEqualTo(81920.0);
    assertThat(gpu0.smActivePct()).isEqualTo(75.0);
    assertThat(gpu0.powerW()).isNull();
    assertThat(((GpuSample) out.events.get(2)).utilGpuPct()).isEqualTo(90.0);
    assertThat(out.byLine)
        .containsEntry(5L, "ignored: " + DcgmScrape.FOLDED)
        .containsEntry(8L, "ignored: " + DcgmScrape.BLANK)
        .containsEntry(9L, "rejected: dcgm: DCGM_FI_DEV_POWER_USAGE is NaN")
        .containsEntry(10L, "rejected: dcgm: DCGM_FI_DEV_POWER_USAGE is Infinity")
        .containsEntry(12L, "rejected: dcgm: label value not closed")
        .containsEntry(13L, "rejected: not nvidia-smi or DCGM exporter output")
        .containsEntry(14L, "ignored: " + DcgmScrape.UNUSED);
    assertThat(out.lines()).isEqualTo(14);
  }

  @Test
  void detectionPicksGpuForEachTool() {
    List<List<String>> heads =
        List.of(
            List.of("timestamp, index, utilization.gpu [%]", "2026/12/01 10:00:00.000, 0, 5 %"),
            List.of(
                "# gpu    pwr  gtemp     sm    mem",
                "# Idx      W      C      %      %",
                "    0     43     48     12      5"),
            List.of(
                "# HELP DCGM_FI_DEV_GPU_UTIL GPU utilization (in %).",
                "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\"} 87"));
    for (List<String> head : heads) {
      assertThat(Parsers.detect(head, SETTINGS).engine()).as(head.get(0)).contains(Engine.GPU);
    }
  }

  @Test
  void everyFuzzLineHasExactlyOneOutcome() {
    List<String> lines = GpuFuzzCorpus.lines(50);
    Outcomes out = run(lines.toArray(new String[0]));
    assertThat(out.lines()).isEqualTo(lines.size());
  }

  private static Outcomes run(String... lines) {
    GpuLineParser parser = new GpuLineParser(SETTINGS);
    Outcomes out = new Outcomes();
    long number = 1;
    for (String line : lines) {
      parser.parse(line, new SourcePosition("gpu.csv", number++, 0), out);
    }
    parser.finish(out);
    return out;
  }

  /** One outcome per line: a second outcome for a line fails the test. */
  private static final class Outcomes implements ParseOutput {
    final Map<Long, String> byLine = new TreeMap<>();
    final List<EngineEvent> events = new ArrayList<>();

    @Override
    public void event(EngineEvent event) {
      events.add(event);
      put(event.source().line(), "event " + event.type());
    }

    @Override
    public void ignored(SourcePosition position, String rule) {
      put(position.line(), "ignored: " + rule);
    }

    @Override
    public void rejected(Rejection rejection) {
      assertThat(rejection.engine()).isEqualTo(Engine.GPU);
      put(rejection.position().line(), "rejected: " + rejection.reason());
    }

    private void put(long line, String outcome) {
      assertThat(byLine.put(line, outcome)).as("line " + line + " reported twice").isNull();
    }

    int lines() {
      return byLine.size();
    }
  }
}
