package dev.tokentrace.event;

import static dev.tokentrace.table.ColumnType.BIGINT;
import static dev.tokentrace.table.ColumnType.DOUBLE;
import static dev.tokentrace.table.ColumnType.INTEGER;
import static dev.tokentrace.table.ColumnType.VARCHAR;
import static java.util.Objects.requireNonNull;

import dev.tokentrace.table.TableSchema;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * A process seen on a GPU at one time, from {@code nvidia-smi --query-compute-apps} or {@code
 * nvidia-smi pmon} (docs/formats/gpu.md#gpu_process): the engine itself or a co-tenant. {@code
 * instance} is the engine instance the GPU serves, so a process whose name is not the engine's is
 * another job on the engine's GPU. {@code tool} is {@code compute-apps} or {@code pmon}; pmon gives
 * the process's SM and memory-controller shares, compute-apps its framebuffer memory.
 */
public record GpuProcess(
    Engine engine,
    String instance,
    @Nullable Instant ts,
    SourcePosition source,
    String tool,
    @Nullable Integer gpuIndex,
    @Nullable String gpuUuid,
    long pid,
    @Nullable String processName,
    @Nullable String processType,
    @Nullable Double usedMemMib,
    @Nullable Double smPct,
    @Nullable Double memPct)
    implements EngineEvent {
  public static final String TYPE = "gpu_process";

  /** The {@value #TYPE} table: the envelope, then one column per component below it, in order. */
  public static final EventTable<GpuProcess> TABLE =
      new EventTable<>(
          TYPE,
          GpuProcess.class,
          TableSchema.columns(GpuProcess.class)
              .required("tool", VARCHAR, GpuProcess::tool)
              .optional("gpu_index", INTEGER, GpuProcess::gpuIndex)
              .optional("gpu_uuid", VARCHAR, GpuProcess::gpuUuid)
              .required("pid", BIGINT, GpuProcess::pid)
              .optional("process_name", VARCHAR, GpuProcess::processName)
              .optional("process_type", VARCHAR, GpuProcess::processType)
              .optional("used_mem_mib", DOUBLE, GpuProcess::usedMemMib)
              .optional("sm_pct", DOUBLE, GpuProcess::smPct)
              .optional("mem_pct", DOUBLE, GpuProcess::memPct)
              .list(),
          v ->
              new GpuProcess(
                  v.engine(),
                  v.instance(),
                  v.ts(),
                  v.source(),
                  v.text(0),
                  v.int32(1),
                  v.text(2),
                  requireNonNull(v.int64(3), "pid"),
                  v.text(4),
                  v.text(5),
                  v.float64(6),
                  v.float64(7),
                  v.float64(8)));

  public GpuProcess {
    requireNonNull(engine, "engine is null");
    requireNonNull(instance, "instance is null");
    requireNonNull(source, "source is null");
    requireNonNull(tool, "tool is null");
    EventChecks.notBlank("tool", tool);
    EventChecks.nonNegative("gpuIndex", gpuIndex);
    EventChecks.nonNegative("pid", pid);
    EventChecks.nonNegativeFinite("usedMemMib", usedMemMib);
    EventChecks.nonNegativeFinite("smPct", smPct);
    EventChecks.nonNegativeFinite("memPct", memPct);
    gpuUuid = gpuUuid == null ? null : EventChecks.cap(gpuUuid, GpuSample.MAX_TEXT);
    processName = processName == null ? null : EventChecks.cap(processName, GpuSample.MAX_TEXT);
    processType = processType == null ? null : EventChecks.cap(processType, 16);
  }

  @Override
  public String type() {
    return TYPE;
  }

  /** This event stamped with another instance (a GPU mapped by {@code --gpu-map}). */
  public GpuProcess withInstance(String value) {
    return new GpuProcess(
        engine,
        value,
        ts,
        source,
        tool,
        gpuIndex,
        gpuUuid,
        pid,
        processName,
        processType,
        usedMemMib,
        smPct,
        memPct);
  }
}
