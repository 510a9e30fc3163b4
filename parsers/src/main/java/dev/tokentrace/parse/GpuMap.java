package dev.tokentrace.parse;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Which engine instance each GPU of a telemetry file serves, by GPU index or UUID ({@code --gpu-map
 * 0,1=vllm-a --gpu-map GPU-3f6c…=vllm-b}; docs/formats/gpu.md#one-file-several-instances). A GPU
 * the map does not name keeps the file's own instance: it is kept and reported, never dropped.
 * Immutable.
 *
 * @param instances GPU key (an index as written, or a UUID in lower case) to instance
 */
public record GpuMap(Map<String, String> instances) {
  public static final String DOC =
      "GPUS=INSTANCE: GPU telemetry of the GPUs listed (indices or UUIDs, comma-separated) belongs"
          + " to that engine instance; repeat for each instance. GPUs not listed keep --instance";

  /** No mapping: every GPU of a file belongs to its instance. */
  public static final GpuMap NONE = new GpuMap(Map.of());

  public GpuMap {
    instances = Collections.unmodifiableMap(new LinkedHashMap<>(instances));
  }

  /**
   * Reads {@code GPUS=INSTANCE} specs.
   *
   * @throws IllegalArgumentException naming the spec that is not of that form, or a GPU given twice
   */
  public static GpuMap parse(List<String> specs) {
    Map<String, String> instances = new LinkedHashMap<>();
    for (String spec : specs) {
      int equals = spec.lastIndexOf('=');
      if (equals <= 0 || equals == spec.length() - 1) {
        throw new IllegalArgumentException(
            "--gpu-map '" + spec + "': expected GPUS=INSTANCE, e.g. 0,1=vllm-a or GPU-…=vllm-b");
      }
      String instance = spec.substring(equals + 1).strip();
      for (String gpu : spec.substring(0, equals).split(",")) {
        String key = key(gpu);
        if (key.isEmpty()) {
          throw new IllegalArgumentException("--gpu-map '" + spec + "': an empty GPU");
        }
        String before = instances.put(key, instance);
        if (before != null && !before.equals(instance)) {
          throw new IllegalArgumentException(
              "--gpu-map: GPU " + gpu.strip() + " mapped to both " + before + " and " + instance);
        }
      }
    }
    return new GpuMap(instances);
  }

  /** The instance of a GPU: by UUID, else by index, else {@code fallback} (the file's). */
  public String instanceOf(@Nullable Integer index, @Nullable String uuid, String fallback) {
    if (uuid != null) {
      String byUuid = instances.get(key(uuid));
      if (byUuid != null) {
        return byUuid;
      }
    }
    if (index != null) {
      String byIndex = instances.get(Integer.toString(index));
      if (byIndex != null) {
        return byIndex;
      }
    }
    return fallback;
  }

  public boolean isEmpty() {
    return instances.isEmpty();
  }

  private static String key(String gpu) {
    return gpu.strip().toLowerCase(Locale.ROOT);
  }
}
