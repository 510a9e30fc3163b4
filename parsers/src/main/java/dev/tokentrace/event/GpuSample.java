package dev.tokentrace.event;

import static dev.tokentrace.table.ColumnType.DOUBLE;
import static dev.tokentrace.table.ColumnType.INTEGER;
import static dev.tokentrace.table.ColumnType.VARCHAR;
import static java.util.Objects.requireNonNull;

import dev.tokentrace.table.TableSchema;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * One GPU's telemetry at one time, from {@code nvidia-smi --query-gpu}, {@code nvidia-smi dmon} or
 * the DCGM exporter (docs/formats/gpu.md#gpu_sample). {@code instance} is the engine instance the
 * GPU serves. Every metric is nullable: a tool prints only the fields asked for, and a field the
 * GPU cannot report ({@code [N/A]}, {@code [Not Supported]}, {@code -}) is null, with its name in
 * {@code unavailable}. {@code tool} is {@code query-gpu}, {@code dmon} or {@code dcgm}.
 */
public record GpuSample(
    Engine engine,
    String instance,
    @Nullable Instant ts,
    SourcePosition source,
    String tool,
    @Nullable String host,
    @Nullable Integer gpuIndex,
    @Nullable String gpuUuid,
    @Nullable Double utilGpuPct,
    @Nullable Double utilMemPct,
    @Nullable Double memUsedMib,
    @Nullable Double memTotalMib,
    @Nullable Double powerW,
    @Nullable Double smClockMhz,
    @Nullable Double tempC,
    @Nullable Double smActivePct,
    @Nullable String unavailable)
    implements EngineEvent {
  public static final String TYPE = "gpu_sample";

  public static final int MAX_TEXT = 256;

  /** The {@value #TYPE} table: the envelope, then one column per component below it, in order. */
  public static final EventTable<GpuSample> TABLE =
      new EventTable<>(
          TYPE,
          GpuSample.class,
          TableSchema.columns(GpuSample.class)
              .required("tool", VARCHAR, GpuSample::tool)
              .optional("host", VARCHAR, GpuSample::host)
              .optional("gpu_index", INTEGER, GpuSample::gpuIndex)
              .optional("gpu_uuid", VARCHAR, GpuSample::gpuUuid)
              .optional("util_gpu_pct", DOUBLE, GpuSample::utilGpuPct)
              .optional("util_mem_pct", DOUBLE, GpuSample::utilMemPct)
              .optional("mem_used_mib", DOUBLE, GpuSample::memUsedMib)
              .optional("mem_total_mib", DOUBLE, GpuSample::memTotalMib)
              .optional("power_w", DOUBLE, GpuSample::powerW)
              .optional("sm_clock_mhz", DOUBLE, GpuSample::smClockMhz)
              .optional("temp_c", DOUBLE, GpuSample::tempC)
              .optional("sm_active_pct", DOUBLE, GpuSample::smActivePct)
              .optional("unavailable", VARCHAR, GpuSample::unavailable)
              .list(),
          v ->
              new GpuSample(
                  v.engine(),
                  v.instance(),
                  v.ts(),
                  v.source(),
                  v.text(0),
                  v.text(1),
                  v.int32(2),
                  v.text(3),
                  v.float64(4),
                  v.float64(5),
                  v.float64(6),
                  v.float64(7),
                  v.float64(8),
                  v.float64(9),
                  v.float64(10),
                  v.float64(11),
                  v.text(12)));

  public GpuSample {
    requireNonNull(engine, "engine is null");
    requireNonNull(instance, "instance is null");
    requireNonNull(source, "source is null");
    requireNonNull(tool, "tool is null");
    EventChecks.notBlank("tool", tool);
    EventChecks.nonNegative("gpuIndex", gpuIndex);
    EventChecks.nonNegativeFinite("utilGpuPct", utilGpuPct);
    EventChecks.nonNegativeFinite("utilMemPct", utilMemPct);
    EventChecks.nonNegativeFinite("memUsedMib", memUsedMib);
    EventChecks.nonNegativeFinite("memTotalMib", memTotalMib);
    EventChecks.nonNegativeFinite("powerW", powerW);
    EventChecks.nonNegativeFinite("smClockMhz", smClockMhz);
    EventChecks.finite("tempC", tempC);
    EventChecks.nonNegativeFinite("smActivePct", smActivePct);
    host = host == null ? null : EventChecks.cap(host, MAX_TEXT);
    gpuUuid = gpuUuid == null ? null : EventChecks.cap(gpuUuid, MAX_TEXT);
    unavailable = unavailable == null ? null : EventChecks.cap(unavailable, MAX_TEXT);
  }

  @Override
  public String type() {
    return TYPE;
  }

  /** This event stamped with another instance (a GPU mapped by {@code --gpu-map}). */
  public GpuSample withInstance(String value) {
    return new GpuSample(
        engine,
        value,
        ts,
        source,
        tool,
        host,
        gpuIndex,
        gpuUuid,
        utilGpuPct,
        utilMemPct,
        memUsedMib,
        memTotalMib,
        powerW,
        smClockMhz,
        tempC,
        smActivePct,
        unavailable);
  }
}
