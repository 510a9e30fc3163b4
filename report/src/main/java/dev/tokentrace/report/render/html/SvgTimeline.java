package dev.tokentrace.report.render.html;

import dev.tokentrace.report.model.ReportEvidence;
import java.time.Instant;
import java.util.Arrays;
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
  static final String KV = "#555555";
  private static final int HEIGHT = 280;
  private static final int LABEL_ROWS = 4;

  /** Width of one character of a band label (10 px text, HtmlStyle's svg .mk), with margin. */
  private static final double LABEL_CHAR_WIDTH = 7;

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
    // the KV axis ends at a round value above the largest use, so 0.3 % is a visible line, not
    // one lying on the floor of a 0-100 % axis
    double kvTop = kvTop(points);
    SvgAxis.Scale kv = new SvgAxis.Scale(0, kvTop, bottom, top, false);
    StringBuilder svg = SvgComponentBars.open(HEIGHT, "Batch size and queue of " + instance);
    legend(svg, left);
    axes(svg, x, y, kvTop, top, bottom, left, right);
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
      {KV, "KV cache % (right axis)"},
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
      double kvTop,
      int top,
      int bottom,
      int left,
      int right) {
    SvgAxis.secondsGrid(svg, x, top, bottom);
    for (double tick : SvgAxis.ticks(y, 4)) {
      SvgAxis.horizontalGrid(svg, y, tick, left, right, SvgAxis.plain(tick));
    }
    for (double share : new double[] {0, 0.5, 1}) {
      svg.append(
          SvgComponentBars.label(
              right + 8,
              (int) (bottom - (bottom - top) * share) + 4,
              SvgAxis.plain(kvTop * share) + "%",
              "start"));
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
    // each band's #rank label goes to the first of a few rows where it does not overlap the
    // labels already placed; a label that fits nowhere is left out (the band keeps its tooltip)
    double[] rowEnds = new double[LABEL_ROWS];
    Arrays.fill(rowEnds, Double.NEGATIVE_INFINITY);
    for (int rank = 0; rank < slow.size(); rank++) {
      ReportEvidence.SlowRequest request = slow.get(rank);
      double[] band = SvgAxis.slowBand(x, start, request, instance);
      if (band == null) {
        continue;
      }
      double x1 = band[0];
      svg.append(
          SvgAxis.slowRect(
              x1, band[1], top, bottom, rank, request, ", " + Html.text(request.dominant())));
      String label = "#" + (rank + 1);
      double labelWidth = LABEL_CHAR_WIDTH * label.length() + 4;
      for (int row = 0; row < LABEL_ROWS; row++) {
        if (x1 + 2 >= rowEnds[row]) {
          rowEnds[row] = x1 + 2 + labelWidth;
          svg.append(
              String.format(
                  Locale.ROOT,
                  "<text x=\"%s\" y=\"%d\" class=\"mk\">%s</text>",
                  Html.num(x1 + 2),
                  top + 11 + 12 * row,
                  label));
          break;
        }
      }
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
          .append(Html.num(kv.at(Math.min(point.kvMaxPct(), kv.max()))));
    }
    return path.length() == 0
        ? ""
        : "<path d=\""
            + path
            + "\" fill=\"none\" stroke=\""
            + KV
            + "\" stroke-width=\"2\" stroke-dasharray=\"5 3\"><title>KV cache use, %</title>"
            + "</path>";
  }

  /** The KV axis' top: the smallest of 1, 2, 5, 10, 20, 50, 100 % above the largest use. */
  static double kvTop(List<ReportEvidence.TimelinePoint> points) {
    double max = 0;
    for (ReportEvidence.TimelinePoint point : points) {
      if (point.kvMaxPct() != null) {
        max = Math.max(max, point.kvMaxPct());
      }
    }
    for (double top : new double[] {1, 2, 5, 10, 20, 50}) {
      if (max <= top * 0.9) {
        return top;
      }
    }
    return 100;
  }

  private static double seconds(Instant start, Instant at) {
    return (at.toEpochMilli() - start.toEpochMilli()) / 1000.0;
  }

  private static double value(Integer value) {
    return value == null ? 0 : value;
  }
}
