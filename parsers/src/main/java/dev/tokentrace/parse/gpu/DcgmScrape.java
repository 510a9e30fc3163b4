package dev.tokentrace.parse.gpu;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.GpuSample;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.parse.ParseOutput;
import dev.tokentrace.parse.exposition.ExpositionLine;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The DCGM exporter's text exposition (docs/formats/gpu.md#dcgm-exporter): one line per field and
 * GPU, labelled {@code gpu}, {@code UUID}, {@code Hostname} (and {@code pod}, {@code namespace},
 * {@code container} when it maps GPUs to pods). The fields of one GPU in one scrape become one
 * {@code gpu_sample} at the position of its first line; the others are reported as folded into it.
 * A scrape ends when a (field, GPU) pair repeats, and at the end of the source. Not thread-safe.
 */
final class DcgmScrape {
  static final String FOLDED = "gpu: dcgm field folded into its gpu's sample";
  static final String UNUSED = "gpu: dcgm field not used";
  static final String BLANK = "gpu: dcgm blank value (field not supported or not found)";

  /**
   * DCGM writes a field it has no value for as a sentinel: 2^47 for floating-point fields and
   * {@code 0x7ffffffffffffff0} and up for integer ones (docs/formats/gpu.md#dcgm-exporter); no real
   * reading is that large.
   */
  static final double BLANK_FLOOR = 140737488355328.0;

  private final String instance;
  private final Map<String, Draft> drafts = new LinkedHashMap<>();

  DcgmScrape(String instance) {
    this.instance = instance;
  }

  /** Whether tokentrace reads this DCGM field. */
  static boolean used(String field) {
    switch (field) {
      case "DCGM_FI_DEV_GPU_UTIL":
      case "DCGM_FI_DEV_MEM_COPY_UTIL":
      case "DCGM_FI_DEV_FB_USED":
      case "DCGM_FI_DEV_FB_FREE":
      case "DCGM_FI_DEV_FB_TOTAL":
      case "DCGM_FI_DEV_POWER_USAGE":
      case "DCGM_FI_DEV_SM_CLOCK":
      case "DCGM_FI_DEV_GPU_TEMP":
      case "DCGM_FI_PROF_SM_ACTIVE":
        return true;
      default:
        return false;
    }
  }

  /** Takes one used field's sample (finite, checked by the caller). */
  void accept(ExpositionLine sample, SourcePosition position, ParseOutput sink) {
    String gpu = sample.label("gpu");
    String uuid = sample.label("UUID");
    String key = (gpu == null ? "" : gpu) + "/" + (uuid == null ? "" : uuid);
    Draft draft = drafts.get(key);
    if (draft != null && draft.fields.contains(sample.name())) {
      flush(sink);
      draft = null;
    }
    if (draft == null) {
      draft = new Draft(position, sample, gpu, uuid);
      drafts.put(key, draft);
    } else {
      sink.ignored(position, FOLDED);
    }
    draft.take(sample);
  }

  /** Emits the scrape collected so far. */
  void flush(ParseOutput sink) {
    for (Draft draft : drafts.values()) {
      sink.event(draft.event(instance));
    }
    drafts.clear();
  }

  private static final class Draft {
    private final SourcePosition first;
    private final @Nullable Instant ts;
    private final @Nullable String host;
    private final @Nullable Integer index;
    private final @Nullable String uuid;
    private final Set<String> fields = new HashSet<>();
    private final Map<String, Double> values = new LinkedHashMap<>();

    Draft(
        SourcePosition first, ExpositionLine sample, @Nullable String gpu, @Nullable String uuid) {
      this.first = first;
      Long ms = sample.timestampMs();
      this.ts = ms == null ? null : Instant.ofEpochMilli(ms);
      this.host = sample.label("Hostname");
      this.index = index(gpu);
      this.uuid = uuid;
    }

    private static @Nullable Integer index(@Nullable String gpu) {
      if (gpu == null || gpu.isEmpty() || gpu.length() > 6) {
        return null;
      }
      for (int i = 0; i < gpu.length(); i++) {
        if (!Character.isDigit(gpu.charAt(i))) {
          return null; // a MIG instance or a UUID in the gpu label: kept in gpu_uuid only
        }
      }
      return Integer.parseInt(gpu);
    }

    void take(ExpositionLine sample) {
      fields.add(sample.name());
      values.put(sample.name(), sample.value());
    }

    GpuSample event(String instance) {
      Double used = values.get("DCGM_FI_DEV_FB_USED");
      Double free = values.get("DCGM_FI_DEV_FB_FREE");
      Double total = values.get("DCGM_FI_DEV_FB_TOTAL");
      if (total == null && used != null && free != null) {
        total = used + free; // docs/formats/gpu.md#dcgm-exporter: no total in the default set
      }
      Double smActive = values.get("DCGM_FI_PROF_SM_ACTIVE");
      return new GpuSample(
          Engine.GPU,
          instance,
          ts,
          first,
          "dcgm",
          host,
          index,
          uuid,
          values.get("DCGM_FI_DEV_GPU_UTIL"),
          values.get("DCGM_FI_DEV_MEM_COPY_UTIL"),
          used,
          total,
          values.get("DCGM_FI_DEV_POWER_USAGE"),
          values.get("DCGM_FI_DEV_SM_CLOCK"),
          values.get("DCGM_FI_DEV_GPU_TEMP"),
          smActive == null ? null : smActive * 100,
          null);
    }
  }
}
