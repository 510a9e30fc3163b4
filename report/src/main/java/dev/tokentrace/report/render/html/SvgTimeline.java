package dev.tokentrace.report.render.html;

import dev.tokentrace.report.model.Numbers;
import dev.tokentrace.report.model.ReportEvidence;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * A server's batch size and queue length over time as inline SVG (the largest per time slice of
 * report/instance_timeline), KV cache use on a second axis, and the slowest requests it served
 * marked as bands from their start to their end (on the server's clock).
 *
 * <p>(Longer than the house's 200 lines: axes, bands and three series of one chart.)
 */
final class SvgTimeline {
  static final String BATCH = "#2f7fc1";
  static final String QUEUE = "#e4572e";
  static final String KV = "#888888";
  private static final int HEIGHT = 280;

  private SvgTimeline() {}

  static String chart(
      String instance,
      List<ReportEvidence.TimelinePoint> points,
      List<ReportEvidence.SlowRequest> slow) {
    Instant start = points.get(0).bucketStartTs();
    Instant end = points.get(points.size() - 1).bucketEndTs();
    double span = Math.max(end.toEpochMilli() - start.toEpochMilli(), 1) / 1000.0;
    double max = 1;
    for (ReportEvidence.TimelinePoint point : points) {
      max = Math.max(max, Math.max(value(point.batchMax()), value(point.queueMax())));
    }
    int left = 50;
    int right = SvgComponentBars.WIDTH - 60;
    int top = 30;
    int bottom = HEIGHT - 34;
    SvgAxis.Scale x = new SvgAxis.Scale(0, span, left, right, false);
    SvgAxis.Scale y = SvgAxis.linear(0, max, bottom, top);
    SvgAxis.Scale kv = new SvgAxis.Scale(0, 100, bottom, top, false);
    StringBuilder svg = SvgComponentBars.open(HEIGHT, "Batch size and queue of " + instance);
    legend(svg, left);
    axes(svg, x, y, top, bottom, left, right);
    bands(svg, x, start, slow, instance, top, bottom);
    svg.append(line(points, x, y, start, true, BATCH, "batch size (largest in slice)"));
    svg.append(line(points, x, y, start, false, QUEUE, "queue (largest in slice)"));
    svg.append(kvLine(points, x, kv, start));
    svg.append(
        SvgComponentBars.label(
            (left + right) / 2,
            HEIGHT - 2,
            "seconds since " + start + " (server clock)",
            "middle"));
    return svg.append("</svg>").toString();
  }

  private static void legend(StringBuilder svg, int left) {
    String[][] items = {
      {BATCH, "batch size / running"},
      {QUEUE, "queue / waiting"},
      {KV, "KV cache % (right)"},
      {"#e4572e33", "slow request (#rank)"}
    };
    int at = left;
    for (String[] item : items) {
      svg.append(
          String.format(
              Locale.ROOT,
              "<rect x=\"%d\" y=\"8\" width=\"14\" height=\"10\" fill=\"%s\"/>"
                  + "<text x=\"%d\" y=\"17\" class=\"lg\">%s</text>",
              at,
              item[0],
              at + 19,
              item[1]));
      at += 40 + item[1].length() * 7;
    }
  }

  private static void axes(
      StringBuilder svg,
      SvgAxis.Scale x,
      SvgAxis.Scale y,
      int top,
      int bottom,
      int left,
      int right) {
    for (double tick : SvgAxis.ticks(x, 8)) {
      if (tick > x.max()) {
        break;
      }
      svg.append(vertical(x.at(tick), top, bottom, "gr"));
      svg.append(
          SvgComponentBars.label((int) x.at(tick), bottom + 16, SvgAxis.plain(tick), "middle"));
    }
    for (double tick : SvgAxis.ticks(y, 4)) {
      svg.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%d\" y1=\"%s\" x2=\"%d\" y2=\"%s\" class=\"gr\"/>",
              left,
              Html.num(y.at(tick)),
              right,
              Html.num(y.at(tick))));
      svg.append(
          SvgComponentBars.label(left - 6, (int) y.at(tick) + 4, SvgAxis.plain(tick), "end"));
    }
    for (int pct = 0; pct <= 100; pct += 50) {
      svg.append(
          SvgComponentBars.label(
              right + 8, (int) (bottom - (bottom - top) * pct / 100.0) + 4, pct + "%", "start"));
    }
  }

  private static void bands(
      StringBuilder svg,
      SvgAxis.Scale x,
      Instant start,
      List<ReportEvidence.SlowRequest> slow,
      String instance,
      int top,
      int bottom) {
    for (int rank = 0; rank < slow.size(); rank++) {
      ReportEvidence.SlowRequest request = slow.get(rank);
      if (!instance.equals(request.instance())
          || request.alignedStartTs() == null
          || request.clientE2eMs() == null) {
        continue;
      }
      double from = seconds(start, request.alignedStartTs());
      double to = from + request.clientE2eMs() / 1000;
      double x1 = Math.max(x.at(from), x.from());
      double x2 = Math.min(x.at(to), x.to());
      if (x2 <= x1) {
        continue;
      }
      svg.append(
          String.format(
              Locale.ROOT,
              "<rect x=\"%s\" y=\"%d\" width=\"%s\" height=\"%d\" fill=\"#e4572e\""
                  + " fill-opacity=\"0.13\" stroke=\"#e4572e\" stroke-opacity=\"0.5\"><title>#%d %s:"
                  + " E2E %s ms, %s</title></rect><text x=\"%s\" y=\"%d\" class=\"mk\">#%d</text>",
              Html.num(x1),
              top,
              Html.num(x2 - x1),
              bottom - top,
              rank + 1,
              Html.text(request.requestKey()),
              Numbers.ms(request.clientE2eMs()),
              Html.text(request.dominant()),
              Html.num(x1 + 2),
              top + 11 + 11 * (rank % 3),
              rank + 1));
    }
  }

  private static String line(
      List<ReportEvidence.TimelinePoint> points,
      SvgAxis.Scale x,
      SvgAxis.Scale y,
      Instant start,
      boolean batch,
      String color,
      String title) {
    StringBuilder path = new StringBuilder();
    for (ReportEvidence.TimelinePoint point : points) {
      Integer value = batch ? point.batchMax() : point.queueMax();
      if (value == null) {
        continue;
      }
      double mid =
          (seconds(start, point.bucketStartTs()) + seconds(start, point.bucketEndTs())) / 2;
      path.append(path.length() == 0 ? "M" : " L")
          .append(Html.num(x.at(mid)))
          .append(' ')
          .append(Html.num(y.at(value)));
    }
    return path.length() == 0
        ? ""
        : String.format(
            Locale.ROOT,
            "<path d=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"><title>%s</title></path>",
            path,
            color,
            title);
  }

  private static String kvLine(
      List<ReportEvidence.TimelinePoint> points, SvgAxis.Scale x, SvgAxis.Scale kv, Instant start) {
    StringBuilder path = new StringBuilder();
    for (ReportEvidence.TimelinePoint point : points) {
      if (point.kvMaxPct() == null) {
        continue;
      }
      double mid =
          (seconds(start, point.bucketStartTs()) + seconds(start, point.bucketEndTs())) / 2;
      path.append(path.length() == 0 ? "M" : " L")
          .append(Html.num(x.at(mid)))
          .append(' ')
          .append(Html.num(kv.at(Math.min(point.kvMaxPct(), 100))));
    }
    return path.length() == 0
        ? ""
        : "<path d=\""
            + path
            + "\" fill=\"none\" stroke=\""
            + KV
            + "\" stroke-width=\"1.4\" stroke-dasharray=\"4 3\"><title>KV cache use, %</title>"
            + "</path>";
  }

  private static String vertical(double x, int top, int bottom, String css) {
    return String.format(
        Locale.ROOT,
        "<line x1=\"%s\" y1=\"%d\" x2=\"%s\" y2=\"%d\" class=\"%s\"/>",
        Html.num(x),
        top,
        Html.num(x),
        bottom,
        css);
  }

  private static double seconds(Instant start, Instant at) {
    return (at.toEpochMilli() - start.toEpochMilli()) / 1000.0;
  }

  private static double value(Integer value) {
    return value == null ? 0 : value;
  }
}
