package dev.tokentrace.simulator.output;

import dev.tokentrace.simulator.GpuSettings;
import dev.tokentrace.simulator.RequestView;
import dev.tokentrace.simulator.ServerView;
import dev.tokentrace.simulator.SimObserver;
import dev.tokentrace.simulator.StepView;
import java.io.Closeable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * The simulated engine's GPU telemetry (docs/formats/gpu.md#simulated-telemetry), under {@code
 * gpu/}: nvidia-smi {@code --query-gpu} CSV looped every 500 ms, {@code --query-compute-apps} CSV
 * every 500 ms, {@code dmon -s pucm -o DT} and {@code pmon -s um -o DT} every second, and the DCGM
 * exporter's text saved every second with timestamps; plus {@code gpu_truth.csv}, each attempt that
 * reached the server and whether the co-tenant hit it. Utilisation is the share of each period in
 * which an engine step ran (with the co-tenant's share on top while it runs); memory is the weights
 * plus the KV cache's used share of its pool; power and clocks follow utilisation. One GPU, index
 * 0. Not thread-safe.
 *
 * <p>(Longer than the house's 200 lines: five small file formats of one sampler.)
 */
final class GpuTelemetryFiles implements SimObserver, Closeable {
  static final String DIR = "gpu";
  static final String QUERY = DIR + "/nvidia-smi-query-gpu.csv";
  static final String APPS = DIR + "/nvidia-smi-compute-apps.csv";
  static final String DMON = DIR + "/nvidia-smi-dmon.txt";
  static final String PMON = DIR + "/nvidia-smi-pmon.txt";
  static final String DCGM = DIR + "/dcgm-exporter.prom";
  static final String TRUTH = "gpu_truth.csv";

  static final String UUID = "GPU-3f6c0b9e-52a1-4d7e-8c2b-9e4a17d0c5f3";
  static final long ENGINE_PID = 2817;
  static final String ENGINE_NAME = "/usr/bin/python3";
  static final long CO_TENANT_PID = 40517;
  static final String CO_TENANT_NAME = "/opt/jobs/bin/finetune";
  static final double TOTAL_MIB = 81559;
  static final double WEIGHTS_MIB = 15316 + 1790; // an 8B model in BF16, CUDA graphs, activations
  static final double KV_POOL_MIB = 52000;

  private static final long TICK_US = 500_000;
  private static final String HOST = "gpu-node-3";
  private static final DateTimeFormatter SMI_TIME =
      DateTimeFormatter.ofPattern("yyyy/MM/dd HH:mm:ss.SSS", Locale.ROOT);
  private static final DateTimeFormatter DMON_DATE =
      DateTimeFormatter.ofPattern("yyyyMMdd", Locale.ROOT);
  private static final DateTimeFormatter DMON_TIME =
      DateTimeFormatter.ofPattern("HH:mm:ss", Locale.ROOT);

  private final GpuSettings gpu;
  private final Instant start;
  private final ZoneId zone;
  private final TextFile query;
  private final TextFile apps;
  private final TextFile dmon;
  private final TextFile pmon;
  private final TextFile dcgm;
  private final TextFile truth;
  private final OutputSettings output;
  private long nextTickUs = TICK_US;
  private long cursorUs;
  private long busyUs;
  private long previousBusyUs;
  private boolean stepRunning;
  private long ticks;

  private GpuTelemetryFiles(Path dir, OutputSettings output, GpuSettings gpu) {
    this.gpu = gpu;
    this.output = output;
    this.start = output.start();
    this.zone = output.zone();
    this.query = TextFile.create(dir.resolve(QUERY));
    this.apps = TextFile.create(dir.resolve(APPS));
    this.dmon = TextFile.create(dir.resolve(DMON));
    this.pmon = TextFile.create(dir.resolve(PMON));
    this.dcgm = TextFile.create(dir.resolve(DCGM));
    this.truth = TextFile.create(dir.resolve(TRUTH));
    query.write(
        "timestamp, index, uuid, utilization.gpu [%], utilization.memory [%], memory.used [MiB],"
            + " memory.total [MiB], power.draw [W], clocks.current.sm [MHz], temperature.gpu\n");
    apps.write("timestamp, gpu_uuid, pid, process_name, used_gpu_memory [MiB]\n");
    dmon.write(
        "#Date       Time        gpu    pwr  gtemp  mtemp     sm    mem    enc    dec   mclk"
            + "   pclk     fb   bar1\n"
            + "#YYYYMMDD   HH:MM:SS    Idx      W      C      C      %      %      %      %    MHz"
            + "    MHz     MB     MB\n");
    pmon.write(
        "#Date       Time        gpu         pid   type     sm    mem    enc    dec     fb   command\n"
            + "#YYYYMMDD   HH:MM:SS    Idx           #    C/G      %      %      %      %     MB"
            + "   name\n");
    truth.write("request_id,attempt,final,server_arrival_ts,server_end_ts,hit\n");
  }

  /** Adds the telemetry writer when the settings ask for it. */
  static void open(
      GpuSettings gpu,
      OutputSettings output,
      Path dir,
      List<SimObserver> observers,
      List<Closeable> files) {
    if (!gpu.telemetry() && !gpu.contention()) {
      return;
    }
    try {
      Files.createDirectories(dir.resolve(DIR));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException("cannot create " + dir.resolve(DIR), e);
    }
    GpuTelemetryFiles writer = new GpuTelemetryFiles(dir, output, gpu);
    observers.add(writer);
    files.add(writer);
  }

  /** SOURCE.md's description of one of these files, null for another file. */
  static @Nullable String describe(String name) {
    switch (name) {
      case QUERY:
        return "`nvidia-smi --query-gpu=timestamp,index,uuid,utilization.gpu,utilization.memory,"
            + "memory.used,memory.total,power.draw,clocks.sm,temperature.gpu --format=csv -lms 500`";
      case APPS:
        return "`nvidia-smi --query-compute-apps=timestamp,gpu_uuid,pid,process_name,used_memory"
            + " --format=csv -lms 500`";
      case DMON:
        return "`nvidia-smi dmon -s pucm -o DT` (every second)";
      case PMON:
        return "`nvidia-smi pmon -s um -o DT` (every second)";
      case DCGM:
        return "DCGM exporter `/metrics` saved every second, with timestamps";
      case TRUTH:
        return "ground truth of the co-tenant: each attempt's server time and whether it overlapped"
            + " the co-tenant's window (hit)";
      default:
        return null;
    }
  }

  @Override
  public void advance(long nowUs, ServerView server) {
    moveTo(nowUs, server);
  }

  @Override
  public void stepStarted(StepView step, ServerView server) {
    moveTo(step.startUs(), server);
    stepRunning = true;
  }

  @Override
  public void stepFinished(StepView step, ServerView server) {
    moveTo(step.endUs(), server);
    stepRunning = false;
  }

  @Override
  public void clientDone(RequestView request) {
    if (request.serverArrivalUs() < 0) {
      return; // never reached the server
    }
    long endUs = request.serverEndUs() >= 0 ? request.serverEndUs() : request.clientEndUs();
    boolean hit =
        request.serverArrivalUs() < gpu.contentionToUs() && endUs >= gpu.contentionFromUs();
    StringBuilder line = truth.begin();
    line.append(ServerIds.clientSide(request, output.format(), output.api())).append(',');
    line.append(request.attempt()).append(',').append(request.finalAttempt()).append(',');
    line.append(at(request.serverArrivalUs())).append(',').append(at(endUs)).append(',');
    line.append(hit);
    truth.end();
  }

  @Override
  public void finished(ServerView server) {
    moveTo(cursorUs + 4 * TICK_US, server); // the loop runs on a little after the last request
  }

  private void moveTo(long toUs, ServerView server) {
    while (nextTickUs <= toUs) {
      accumulate(nextTickUs);
      sample(nextTickUs, server);
      nextTickUs += TICK_US;
    }
    accumulate(toUs);
  }

  private void accumulate(long toUs) {
    if (toUs > cursorUs) {
      if (stepRunning) {
        busyUs += toUs - cursorUs;
      }
      cursorUs = toUs;
    }
  }

  private void sample(long tickUs, ServerView server) {
    double engineBusy = Math.min(1.0, busyUs / (double) TICK_US);
    double secondBusy = Math.min(1.0, (busyUs + previousBusyUs) / (2.0 * TICK_US));
    previousBusyUs = busyUs;
    busyUs = 0;
    boolean coTenant = gpu.contended(tickUs);
    Reading half = reading(engineBusy, coTenant, server);
    querySample(tickUs, half);
    appsSample(tickUs, half, coTenant);
    if (++ticks % 2 == 0) {
      Reading second = reading(secondBusy, coTenant, server);
      dmonSample(tickUs, second);
      pmonSample(tickUs, second, coTenant);
      dcgmSample(tickUs, second);
    }
  }

  /** One period's readings. */
  private record Reading(
      double enginePct,
      double utilPct,
      double memPct,
      double engineMib,
      double usedMib,
      double powerW,
      int smClock,
      int temp) {}

  private Reading reading(double engineBusy, boolean coTenant, ServerView server) {
    double share = coTenant ? gpu.coTenantUtilPct() / 100 : 0;
    // utilization.gpu: the share of the period in which any kernel ran
    // (docs/formats/gpu.md#gpu_sample)
    double busy = engineBusy + (1 - engineBusy) * share;
    double kv =
        server.kvCapacityBlocks() == 0
            ? 0
            : server.kvUsedBlocks() / (double) server.kvCapacityBlocks();
    double engineMib = Math.round(WEIGHTS_MIB + KV_POOL_MIB * kv);
    double used = engineMib + (coTenant ? gpu.coTenantMemMib() : 0);
    double power = 72 + 560 * busy;
    int clock = busy > 0 ? 1980 : 345;
    int temp = (int) Math.round(34 + 32 * busy);
    return new Reading(
        100 * engineBusy, 100 * busy, 55 * busy, engineMib, used, power, clock, temp);
  }

  private void querySample(long tickUs, Reading r) {
    StringBuilder line = query.begin();
    line.append(SMI_TIME.format(local(tickUs))).append(", 0, ").append(UUID).append(", ");
    line.append(Math.round(r.utilPct())).append(" %, ").append(Math.round(r.memPct()));
    line.append(" %, ").append(Math.round(r.usedMib())).append(" MiB, ");
    line.append(Math.round(TOTAL_MIB)).append(" MiB, ");
    Decimals.fixed(line, r.powerW(), 2).append(" W, ").append(r.smClock()).append(" MHz, ");
    line.append(r.temp());
    query.end();
  }

  private void appsSample(long tickUs, Reading r, boolean coTenant) {
    String time = SMI_TIME.format(local(tickUs));
    StringBuilder line = apps.begin();
    line.append(time).append(", ").append(UUID).append(", ").append(ENGINE_PID).append(", ");
    line.append(ENGINE_NAME).append(", ").append(Math.round(r.engineMib())).append(" MiB");
    apps.end();
    if (coTenant) {
      StringBuilder other = apps.begin();
      other.append(time).append(", ").append(UUID).append(", ").append(CO_TENANT_PID);
      other.append(", ").append(CO_TENANT_NAME).append(", ");
      other.append(Math.round(gpu.coTenantMemMib())).append(" MiB");
      apps.end();
    }
  }

  private void dmonSample(long tickUs, Reading r) {
    StringBuilder line = dmon.begin();
    dateTime(line, tickUs);
    line.append(
        String.format(
            Locale.ROOT,
            "  %5d  %5d  %5d  %5d  %5d  %5d  %5d  %5d  %5d  %5d  %5d  %5d",
            0,
            Math.round(r.powerW()),
            r.temp(),
            r.temp() + 8,
            Math.round(r.utilPct()),
            Math.round(r.memPct()),
            0,
            0,
            2619,
            r.smClock(),
            Math.round(r.usedMib()),
            5));
    dmon.end();
  }

  private void pmonSample(long tickUs, Reading r, boolean coTenant) {
    processRow(tickUs, ENGINE_PID, r.enginePct(), r.engineMib(), "python3");
    if (coTenant) {
      processRow(tickUs, CO_TENANT_PID, gpu.coTenantUtilPct(), gpu.coTenantMemMib(), "finetune");
    }
  }

  private void processRow(long tickUs, long pid, double smPct, double mib, String command) {
    StringBuilder line = pmon.begin();
    dateTime(line, tickUs);
    line.append(
        String.format(
            Locale.ROOT,
            "  %5d  %10d  %5s  %5d  %5d  %5s  %5s  %5d   %s",
            0,
            pid,
            "C",
            Math.round(smPct),
            Math.round(smPct * 0.45),
            "-",
            "-",
            Math.round(mib),
            command));
    pmon.end();
  }

  private void dcgmSample(long tickUs, Reading r) {
    long epochMs = start.toEpochMilli() + tickUs / 1000;
    double used = Math.round(r.usedMib());
    field("DCGM_FI_DEV_SM_CLOCK", "SM clock frequency (in MHz).", r.smClock(), epochMs);
    field("DCGM_FI_DEV_GPU_TEMP", "GPU temperature (in C).", r.temp(), epochMs);
    field("DCGM_FI_DEV_POWER_USAGE", "Power draw (in W).", r.powerW(), epochMs);
    field("DCGM_FI_DEV_GPU_UTIL", "GPU utilization (in %).", Math.round(r.utilPct()), epochMs);
    field(
        "DCGM_FI_DEV_MEM_COPY_UTIL", "Memory utilization (in %).", Math.round(r.memPct()), epochMs);
    field("DCGM_FI_DEV_FB_FREE", "Framebuffer memory free (in MiB).", TOTAL_MIB - used, epochMs);
    field("DCGM_FI_DEV_FB_USED", "Framebuffer memory used (in MiB).", used, epochMs);
  }

  private void field(String name, String help, double value, long epochMs) {
    StringBuilder line = dcgm.begin();
    line.append("# HELP ").append(name).append(' ').append(help).append('\n');
    line.append("# TYPE ").append(name).append(" gauge\n");
    line.append(name).append("{gpu=\"0\",UUID=\"").append(UUID);
    line.append("\",device=\"nvidia0\",modelName=\"NVIDIA H100 80GB HBM3\",Hostname=\"");
    line.append(HOST).append("\"} ");
    if (value == Math.rint(value)) {
      line.append((long) value);
    } else {
      Decimals.fixed(line, value, 3);
    }
    line.append(' ').append(epochMs);
    dcgm.end();
  }

  private void dateTime(StringBuilder line, long tickUs) {
    var time = local(tickUs);
    line.append(' ').append(DMON_DATE.format(time)).append("   ").append(DMON_TIME.format(time));
    line.append("    ");
  }

  private java.time.LocalDateTime local(long simUs) {
    return java.time.LocalDateTime.ofInstant(start.plusNanos(simUs * 1000), zone);
  }

  private String at(long simUs) {
    return start.plusNanos(simUs * 1000).toString();
  }

  @Override
  public void close() {
    query.close();
    apps.close();
    dmon.close();
    pmon.close();
    dcgm.close();
    truth.close();
  }
}
