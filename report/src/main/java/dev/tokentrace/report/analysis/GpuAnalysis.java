package dev.tokentrace.report.analysis;

import dev.tokentrace.report.model.GpuEvidence;
import dev.tokentrace.report.model.GpuSection;
import dev.tokentrace.report.model.Inline;
import dev.tokentrace.report.model.Numbers;
import dev.tokentrace.report.model.ReportData;
import dev.tokentrace.report.model.ReportEvidence;
import dev.tokentrace.report.model.Suggestion;
import dev.tokentrace.report.model.Text;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The "GPU and co-tenants" section: per instance its GPUs' utilisation, memory and power, the
 * processes on them that are not the engine, a finding when requests ran while such a process held
 * the GPU (with their TPOT against the clear requests'), and the server's own /metrics histograms
 * against the attribution. Stateless.
 */
final class GpuAnalysis {
  private GpuAnalysis() {}

  static GpuSection of(ReportData data) {
    GpuEvidence gpu = data.evidence().gpu();
    Set<String> names = new TreeSet<>();
    gpu.timeline().forEach(point -> names.add(point.instance()));
    gpu.processes().forEach(process -> names.add(process.instance()));
    List<GpuSection.Instance> instances = new ArrayList<>();
    List<Text> findings = new ArrayList<>();
    for (String name : names) {
      GpuSection.Instance instance = instance(name, gpu);
      instances.add(instance);
      Text finding = finding(instance, data.evidence());
      if (finding != null) {
        findings.add(finding);
      }
    }
    Text absent =
        names.isEmpty()
            ? Text.of(
                "No GPU telemetry was loaded (nvidia-smi, DCGM exporter): whether another process"
                    + " shared the engines' GPUs cannot be checked; ingest the GPU files with the"
                    + " engine's instance (docs/formats/gpu.md).")
            : null;
    return new GpuSection(
        instances,
        findings,
        HistogramCheck.sentences(gpu.histograms()),
        absent,
        gpu.histograms().isEmpty()
            ? Text.of(
                "No /metrics histograms were loaded (",
                Inline.code("tokentrace scrape"),
                " or a saved scrape): the server's own latency histograms were not cross-checked"
                    + " against the attribution.")
            : null);
  }

  /** The suggestion that goes with a contention finding, if any. */
  static List<Suggestion> suggestions(GpuSection section) {
    List<Suggestion> suggestions = new ArrayList<>();
    for (GpuSection.Instance instance : section.instances()) {
      if (instance.contendedRequests() == 0 || instance.coTenants().isEmpty()) {
        continue;
      }
      String pids =
          instance.coTenants().stream()
              .map(process -> Long.toString(process.pid()))
              .distinct()
              .collect(Collectors.joining(", "));
      suggestions.add(
          new Suggestion(
              "isolation",
              Text.format(
                  "Give %s its GPU to itself: move the other process (pid %s) elsewhere, or"
                      + " partition the GPU (MIG, a Kubernetes GPU request, CUDA_VISIBLE_DEVICES)"
                      + " and measure again; the %s requests that overlapped it decoded at a"
                      + " median TPOT of %s ms against %s ms: contention, not the engine or its"
                      + " settings.",
                  Inline.code(instance.instance()),
                  pids,
                  instance.contendedRequests(),
                  Numbers.ms(instance.contendedTpotP50Ms()),
                  Numbers.ms(instance.clearTpotP50Ms())),
              List.of()));
    }
    return suggestions;
  }

  private static GpuSection.Instance instance(String name, GpuEvidence gpu) {
    List<GpuEvidence.GpuPoint> points =
        gpu.timeline().stream().filter(point -> point.instance().equals(name)).toList();
    Map<String, List<GpuEvidence.ContendedRequest>> contended = new LinkedHashMap<>();
    for (GpuEvidence.ContendedRequest row : gpu.contended()) {
      if (row.instance().equals(name)) {
        contended
            .computeIfAbsent(row.runId() + "\u0000" + row.requestKey(), k -> new ArrayList<>())
            .add(row);
      }
    }
    List<Double> tpots = new ArrayList<>();
    @Nullable Double clear = null;
    for (List<GpuEvidence.ContendedRequest> rows : contended.values()) {
      GpuEvidence.ContendedRequest first = rows.get(0);
      if (first.tpotMs() != null) {
        tpots.add(first.tpotMs());
      }
      if (first.clearTpotP50Ms() != null) {
        clear = first.clearTpotP50Ms();
      }
    }
    return new GpuSection.Instance(
        name,
        points.isEmpty() ? "none" : points.get(0).tool(),
        points.stream().mapToLong(GpuEvidence.GpuPoint::gpus).max().orElse(0),
        weightedMean(points, true),
        max(points.stream().map(GpuEvidence.GpuPoint::utilMaxPct).toList()),
        max(points.stream().map(GpuEvidence.GpuPoint::memUsedMib).toList()),
        max(points.stream().map(GpuEvidence.GpuPoint::memTotalMib).toList()),
        weightedMean(points, false),
        max(points.stream().map(GpuEvidence.GpuPoint::powerW).toList()),
        gpu.processes().stream()
            .filter(process -> process.instance().equals(name) && !process.isEngine())
            .toList(),
        contended.size(),
        median(tpots),
        clear);
  }

  private static @Nullable Text finding(GpuSection.Instance instance, ReportEvidence evidence) {
    if (instance.coTenants().isEmpty()) {
      return null;
    }
    GpuEvidence.GpuProcessRow biggest = instance.coTenants().get(0);
    for (GpuEvidence.GpuProcessRow process : instance.coTenants()) {
      if (nz(process.maxMemMib()) > nz(biggest.maxMemMib())) {
        biggest = process;
      }
    }
    Text who =
        Text.format(
            "%s on %s (pid %d, up to %s MiB, seen %s to %s)",
            Inline.code(biggest.processName() == null ? "?" : biggest.processName()),
            Inline.code(instance.instance()),
            biggest.pid(),
            Numbers.rate(biggest.maxMemMib()),
            String.valueOf(biggest.firstTs()),
            String.valueOf(biggest.lastTs()));
    int others = instance.coTenants().size() - 1;
    Text plus = others > 0 ? Text.of(" and " + Numbers.count(others, "other process")) : Text.of();
    if (instance.contendedRequests() == 0) {
      return Text.format(
          "Another process shared the engine's GPU: %s%s; no attributed request overlapped it.",
          who, plus);
    }
    long slowHit =
        evidence.slowest().stream().filter(slow -> slowContended(slow, instance, evidence)).count();
    return Text.format(
        "Slow requests coincide with another process on the GPU: %s%s. The %d requests that ran"
            + " meanwhile decoded at a median TPOT of %s ms against %s ms for the requests it did"
            + " not touch (%s), and %d of the %d slowest requests overall were among them.",
        who,
        plus,
        instance.contendedRequests(),
        Numbers.ms(instance.contendedTpotP50Ms()),
        Numbers.ms(instance.clearTpotP50Ms()),
        ratio(instance.contendedTpotP50Ms(), instance.clearTpotP50Ms()),
        slowHit,
        evidence.slowest().size());
  }

  private static boolean slowContended(
      ReportEvidence.SlowRequest slow, GpuSection.Instance instance, ReportEvidence evidence) {
    return instance.instance().equals(slow.instance())
        && evidence.gpu().contended().stream()
            .anyMatch(
                row ->
                    row.requestKey().equals(slow.requestKey()) && row.runId().equals(slow.runId()));
  }

  private static String ratio(@Nullable Double hit, @Nullable Double clear) {
    if (hit == null || clear == null || clear <= 0) {
      return "slowdown n/a";
    }
    return String.format(java.util.Locale.ROOT, "%.2f\u00d7", hit / clear);
  }

  private static @Nullable Double weightedMean(
      List<GpuEvidence.GpuPoint> points, boolean utilisation) {
    double sum = 0;
    long weight = 0;
    for (GpuEvidence.GpuPoint point : points) {
      Double value = utilisation ? point.utilMeanPct() : point.powerW();
      if (value != null) {
        sum += value * point.samples();
        weight += point.samples();
      }
    }
    return weight == 0 ? null : sum / weight;
  }

  private static @Nullable Double max(List<@Nullable Double> values) {
    Double best = null;
    for (Double value : values) {
      if (value != null && (best == null || value > best)) {
        best = value;
      }
    }
    return best;
  }

  private static @Nullable Double median(List<Double> values) {
    if (values.isEmpty()) {
      return null;
    }
    List<Double> sorted = new ArrayList<>(values);
    sorted.sort(null);
    int middle = sorted.size() / 2;
    return sorted.size() % 2 == 1
        ? sorted.get(middle)
        : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
  }

  private static double nz(@Nullable Double value) {
    return value == null ? 0 : value;
  }
}
