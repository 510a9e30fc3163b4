package dev.tokentrace.report.render.html;

import dev.tokentrace.report.model.GpuEvidence;
import dev.tokentrace.report.model.Numbers;
import dev.tokentrace.report.model.ReportEvidence;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * One instance's GPUs on the batch timeline's clock: utilisation and memory used (percent of the
 * total), power and the largest batch (percent of their largest value, named in the legend), with
 * the co-tenants' spells shaded and the slowest requests as bands.
 */
final class SvgGpu {
  static final String UTIL = "#2ca02c";
  static final String MEM = "#9467bd";
  static final String POWER = "#d98c1f";
  static final String BATCH = SvgTimeline.BATCH;
  private static final int HEIGHT = 260;

  private SvgGpu() {}

  /** One series: where it is read from and its 100 %. */
  private record Series(String color, String label, List<double[]> points) {}

  static String chart(
      String instance,
      List<GpuEvidence.GpuPoint> gpu,
      List<ReportEvidence.TimelinePoint> batch,
      List<GpuEvidence.GpuProcessRow> coTenants,
      List<ReportEvidence.SlowRequest> slow) {
    Instant start = gpu.get(0).bucketStartTs();
    Instant end = gpu.get(gpu.size() - 1).bucketEndTs();
    if (!batch.isEmpty()) {
      start = min(start, batch.get(0).bucketStartTs());
      end = max(end, batch.get(batch.size() - 1).bucketEndTs());
    }
    double span = Math.max(end.toEpochMilli() - start.toEpochMilli(), 1) / 1000.0;
    int left = 50;
    int right = SvgComponentBars.WIDTH - 30;
    int top = 30;
    int bottom = HEIGHT - 34;
    SvgAxis.Scale x = new SvgAxis.Scale(0, span, left, right, false);
    SvgAxis.Scale y = new SvgAxis.Scale(0, 100, bottom, top, false);
    double maxPower = maxOf(gpu, GpuEvidence.GpuPoint::powerW);
    double maxBatch = 1;
    for (ReportEvidence.TimelinePoint point : batch) {
      if (point.batchMax() != null) {
        maxBatch = Math.max(maxBatch, point.batchMax());
      }
    }
    List<Series> series = new ArrayList<>();
    series.add(new Series(UTIL, "GPU utilisation %", gpuSeries(gpu, start, p -> p.utilMeanPct())));
    series.add(
        new Series(
            MEM,
            "memory used % of total",
            gpuSeries(
                gpu,
                start,
                p ->
                    p.memUsedMib() == null || p.memTotalMib() == null || p.memTotalMib() <= 0
                        ? null
                        : 100 * p.memUsedMib() / p.memTotalMib())));
    double powerTop = maxPower;
    series.add(
        new Series(
            POWER,
            "power (100% = " + Numbers.rate(maxPower) + " W)",
            gpuSeries(gpu, start, p -> p.powerW() == null ? null : 100 * p.powerW() / powerTop)));
    List<double[]> batchPoints = new ArrayList<>();
    for (ReportEvidence.TimelinePoint point : batch) {
      if (point.batchMax() != null) {
        batchPoints.add(
            new double[] {
              mid(start, point.bucketStartTs(), point.bucketEndTs()),
              100.0 * point.batchMax() / maxBatch
            });
      }
    }
    series.add(new Series(BATCH, "batch (100% = " + Numbers.plain(maxBatch) + ")", batchPoints));
    StringBuilder svg = SvgComponentBars.open(HEIGHT, "GPU of " + instance);
    legend(svg, left, series);
    axes(svg, x, y, top, bottom, left, right);
    spells(svg, x, start, coTenants, top, bottom);
    slowBands(svg, x, start, slow, instance, top, bottom);
    for (Series one : series) {
      svg.append(path(one, x, y));
    }
    svg.append(
        SvgComponentBars.label(
            (left + right) / 2,
            HEIGHT - 2,
            "seconds since " + start + " (server clock)",
            "middle"));
    return svg.append("</svg>").toString();
  }

  private static List<double[]> gpuSeries(
      List<GpuEvidence.GpuPoint> gpu,
      Instant start,
      Function<GpuEvidence.GpuPoint, @Nullable Double> value) {
    List<double[]> points = new ArrayList<>();
    for (GpuEvidence.GpuPoint point : gpu) {
      Double v = value.apply(point);
      if (v != null) {
        points.add(new double[] {mid(start, point.bucketStartTs(), point.bucketEndTs()), v});
      }
    }
    return points;
  }

  private static void legend(StringBuilder svg, int left, List<Series> series) {
    int at = left;
    for (Series one : series) {
      svg.append(
          String.format(
              Locale.ROOT,
              "<rect x=\"%d\" y=\"8\" width=\"14\" height=\"10\" fill=\"%s\"/>"
                  + "<text x=\"%d\" y=\"17\" class=\"lg\">%s</text>",
              at,
              one.color(),
              at + 19,
              Html.text(one.label())));
      at += 40 + one.label().length() * 7;
    }
    svg.append(
        String.format(
            Locale.ROOT,
            "<rect x=\"%d\" y=\"8\" width=\"14\" height=\"10\" fill=\"#7f7f7f\" fill-opacity=\"0.25\"/>"
                + "<text x=\"%d\" y=\"17\" class=\"lg\">co-tenant on the GPU</text>",
            at,
            at + 19));
  }

  private static void axes(
      StringBuilder svg,
      SvgAxis.Scale x,
      SvgAxis.Scale y,
      int top,
      int bottom,
      int left,
      int right) {
    SvgAxis.secondsGrid(svg, x, top, bottom);
    for (double tick : new double[] {0, 25, 50, 75, 100}) {
      SvgAxis.horizontalGrid(svg, y, tick, left, right, SvgAxis.plain(tick) + "%");
    }
  }

  private static void spells(
      StringBuilder svg,
      SvgAxis.Scale x,
      Instant start,
      List<GpuEvidence.GpuProcessRow> coTenants,
      int top,
      int bottom) {
    for (GpuEvidence.GpuProcessRow process : coTenants) {
      if (process.firstTs() == null || process.lastTs() == null) {
        continue;
      }
      double x1 = Math.max(x.at(seconds(start, process.firstTs())), x.from());
      double x2 = Math.min(x.at(seconds(start, process.lastTs())), x.to());
      if (x2 <= x1) {
        continue;
      }
      svg.append(
          String.format(
              Locale.ROOT,
              "<rect x=\"%s\" y=\"%d\" width=\"%s\" height=\"%d\" fill=\"#7f7f7f\""
                  + " fill-opacity=\"0.18\"><title>pid %d %s: %s MiB</title></rect>",
              Html.num(x1),
              top,
              Html.num(x2 - x1),
              bottom - top,
              process.pid(),
              Html.text(process.processName()),
              Numbers.rate(process.maxMemMib())));
    }
  }

  private static void slowBands(
      StringBuilder svg,
      SvgAxis.Scale x,
      Instant start,
      List<ReportEvidence.SlowRequest> slow,
      String instance,
      int top,
      int bottom) {
    for (int rank = 0; rank < slow.size(); rank++) {
      ReportEvidence.SlowRequest request = slow.get(rank);
      double[] band = SvgAxis.slowBand(x, start, request, instance);
      if (band != null) {
        svg.append(SvgAxis.slowRect(band[0], band[1], top, bottom, rank, request, ""));
      }
    }
  }

  private static String path(Series series, SvgAxis.Scale x, SvgAxis.Scale y) {
    if (series.points().isEmpty()) {
      return "";
    }
    StringBuilder d = new StringBuilder();
    for (double[] point : series.points()) {
      d.append(d.length() == 0 ? "M" : " L")
          .append(Html.num(x.at(point[0])))
          .append(' ')
          .append(Html.num(y.at(Math.max(0, Math.min(100, point[1])))));
    }
    return String.format(
        Locale.ROOT,
        "<path d=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"><title>%s</title></path>",
        d,
        series.color(),
        Html.text(series.label()));
  }

  private static double maxOf(
      List<GpuEvidence.GpuPoint> gpu, Function<GpuEvidence.GpuPoint, @Nullable Double> value) {
    double max = 0;
    for (GpuEvidence.GpuPoint point : gpu) {
      Double v = value.apply(point);
      if (v != null) {
        max = Math.max(max, v);
      }
    }
    return max <= 0 ? 1 : max;
  }

  private static double mid(Instant start, Instant from, Instant to) {
    return (seconds(start, from) + seconds(start, to)) / 2;
  }

  private static double seconds(Instant start, Instant at) {
    return (at.toEpochMilli() - start.toEpochMilli()) / 1000.0;
  }

  private static Instant min(Instant a, Instant b) {
    return a.isBefore(b) ? a : b;
  }

  private static Instant max(Instant a, Instant b) {
    return a.isAfter(b) ? a : b;
  }
}
