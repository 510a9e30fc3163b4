package dev.tokentrace.cli;

import dev.tokentrace.app.Ingestion;
import dev.tokentrace.event.Engine;
import dev.tokentrace.event.InstanceNames;
import dev.tokentrace.parse.GpuMap;
import dev.tokentrace.parse.LineSplitter;
import dev.tokentrace.parse.ParseSettings;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;

/** How server logs are read: engine, instance, and what the logs do not say (year, zone). */
final class ParseOptions {
  static final String AUTO = "auto";
  static final double DEFAULT_MAX_REJECT_RATIO = Ingestion.DEFAULT_MAX_REJECT_RATIO;

  @Option(
      names = "--engine",
      paramLabel = "ENGINE",
      description =
          "auto, vllm, sglang or trtllm. auto detects each file's engine from its first lines; an"
              + " explicit engine that the file contradicts is an error",
      defaultValue = AUTO)
  String engine = AUTO;

  @Option(
      names = "--instance",
      paramLabel = "NAME",
      description = ParseSettings.DEFAULT_INSTANCE_DOC,
      defaultValue = ParseSettings.DEFAULT_INSTANCE)
  String instance = ParseSettings.DEFAULT_INSTANCE;

  @Option(
      names = "--gpu-map",
      paramLabel = "GPUS=INSTANCE",
      description =
          GpuMap.DOC
              + " (GPU telemetry files, in batch and with --follow, where it applies to each line"
              + " as it arrives)")
  List<String> gpuMap = new ArrayList<>();

  @Option(
      names = "--learn-gpu-map",
      description =
          "batch: learn which GPU index serves which instance from the startup lines of the engine"
              + " logs given with the GPU files (TensorRT-LLM 'Rank R is using GPU G', SGLang"
              + " server_args base_gpu_id/gpu_id_step/tp_size); --gpu-map wins and every conflict"
              + " is printed. Those lines give CUDA device ordinals: right only when"
              + " CUDA_VISIBLE_DEVICES was unset; vLLM prints none. Refused with --follow (it"
              + " ships GPU lines before a map could be learned): give --gpu-map")
  boolean learnGpuMap;

  @Option(
      names = "--zone",
      paramLabel = "ZONE",
      description = ParseSettings.DEFAULT_ZONE_DOC + ", e.g. UTC, Europe/Berlin, +08:00",
      defaultValue = "UTC")
  String zone = "UTC";

  @Option(
      names = "--year",
      paramLabel = "YYYY",
      description =
          "year of the first timestamp in logs that print none (vLLM MM-DD); default: the file's"
              + " modification year, one less when the log starts in a later month than that."
              + " December to January rollovers inside a log are handled")
  @Nullable Integer year;

  @Option(
      names = "--max-line-bytes",
      paramLabel = "BYTES",
      description = LineSplitter.MAX_LINE_BYTES_DOC,
      defaultValue = "" + LineSplitter.DEFAULT_MAX_LINE_BYTES)
  int maxLineBytes = LineSplitter.DEFAULT_MAX_LINE_BYTES;

  @Option(
      names = "--max-reject-ratio",
      paramLabel = "RATIO",
      description =
          "share of rejected lines above which the command exits 3 after its summary; rejected"
              + " lines are never dropped silently",
      defaultValue = "" + DEFAULT_MAX_REJECT_RATIO)
  double maxRejectRatio = DEFAULT_MAX_REJECT_RATIO;

  /**
   * {@code --instance}, checked like a run id ({@link InstanceNames}).
   *
   * @throws UsageException naming the rule
   */
  String instanceName() {
    try {
      return InstanceNames.check(instance);
    } catch (IllegalArgumentException e) {
      throw new UsageException("--instance: " + e.getMessage());
    }
  }

  /**
   * {@code --gpu-map}, read.
   *
   * @throws UsageException naming the spec that cannot be read
   */
  GpuMap gpuMapping() {
    try {
      return GpuMap.parse(gpuMap);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
  }

  /** The engine the user forced, or null for auto. */
  @Nullable Engine forcedEngine() {
    return AUTO.equalsIgnoreCase(engine.strip()) ? null : Engine.fromId(engine);
  }

  ZoneId zoneId() {
    try {
      return ZoneId.of(zone.strip());
    } catch (java.time.DateTimeException e) {
      throw new UsageException("--zone '" + zone + "' is not a zone: " + e.getMessage());
    }
  }

  /**
   * Refuses {@code --learn-gpu-map} with {@code --follow} (ingest and ship): a map learned from the
   * engines' first lines cannot apply to GPU lines shipped before them.
   */
  void refuseLearnedGpuMap(boolean following) {
    if (following && learnGpuMap) {
      throw new UsageException(
          "--learn-gpu-map cannot be used with --follow: it learns from the first lines of the"
              + " engine logs before any GPU file is read, while --follow ships each GPU line as"
              + " it arrives (lines read before an engine's startup lines, or after a restart"
              + " that resumed past them, would get another instance); give --gpu-map"
              + " GPUS=INSTANCE, which --follow applies to every line"
              + " (docs/formats/gpu.md#gpus-learned-from-startup-lines)");
    }
  }
}
