package dev.tokentrace.cli;

import dev.tokentrace.event.Engine;
import dev.tokentrace.ingest.SourceFile;
import dev.tokentrace.parse.GpuMap;
import dev.tokentrace.parse.ParseSettings;
import dev.tokentrace.parse.gpu.GpuDeviceLines;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code --learn-gpu-map}: which engine instance each GPU index serves, learned from the startup
 * lines of the engine logs read by the same command, added to the explicit {@code --gpu-map} of the
 * GPU telemetry files (docs/formats/gpu.md#gpus-learned-from-startup-lines). The explicit map wins;
 * every conflict (a GPU the explicit map gives another instance, a GPU two logs claim) is said, and
 * such a GPU is not learned. Stateless.
 */
final class LearnedGpus {
  /** What was learned and what was said about it. */
  record Result(List<SourceFile> files, List<String> messages) {}

  private LearnedGpus() {}

  static Result apply(List<SourceFile> files, GpuMap explicit) {
    Map<String, String> learned = new LinkedHashMap<>();
    Map<String, String> where = new LinkedHashMap<>();
    List<String> messages = new ArrayList<>();
    List<String> disputed = new ArrayList<>();
    for (SourceFile file : files) {
      if (file.engine() == Engine.GPU) {
        continue;
      }
      List<String> head = SourceFiles.head(file.path());
      for (int i = 0; i < head.size(); i++) {
        GpuDeviceLines.Devices devices = GpuDeviceLines.read(head.get(i));
        if (devices == null) {
          continue;
        }
        String at = file.path() + ":" + (i + 1);
        if (devices.problem() != null) {
          messages.add("gpu-map: " + at + ": " + devices.shape() + ": " + devices.problem());
          continue;
        }
        String instance = file.parse().instance();
        for (int ordinal : devices.ordinals()) {
          String key = Integer.toString(ordinal);
          String before = learned.putIfAbsent(key, instance);
          if (before == null) {
            where.put(key, at);
          } else if (!before.equals(instance) && !disputed.contains(key)) {
            disputed.add(key);
            messages.add(
                "gpu-map: conflict: GPU "
                    + key
                    + " is claimed by "
                    + before
                    + " ("
                    + where.get(key)
                    + ") and "
                    + instance
                    + " ("
                    + at
                    + "); not learned, give --gpu-map");
          }
        }
      }
    }
    disputed.forEach(learned::remove);
    Map<String, String> merged = new LinkedHashMap<>(explicit.instances());
    learned.forEach(
        (key, instance) -> {
          String given = explicit.instances().get(key);
          if (given == null) {
            merged.put(key, instance);
            messages.add(
                "gpu-map: learned GPU " + key + "=" + instance + " from " + where.get(key));
          } else if (!given.equals(instance)) {
            messages.add(
                "gpu-map: conflict: --gpu-map gives GPU "
                    + key
                    + " to "
                    + given
                    + ", the startup line at "
                    + where.get(key)
                    + " to "
                    + instance
                    + "; --gpu-map kept");
          }
        });
    if (learned.isEmpty() && disputed.isEmpty()) {
      messages.add("gpu-map: no engine startup line names a GPU; nothing learned");
    }
    GpuMap map = new GpuMap(merged);
    List<SourceFile> mapped = new ArrayList<>();
    for (SourceFile file : files) {
      if (file.engine() != Engine.GPU) {
        mapped.add(file);
        continue;
      }
      ParseSettings parse = file.parse();
      mapped.add(
          new SourceFile(
              file.path(),
              file.engine(),
              new ParseSettings(parse.instance(), parse.zone(), parse.startYear(), map)));
    }
    return new Result(mapped, messages);
  }
}
