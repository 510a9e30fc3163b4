package dev.tokentrace.report.render.html;

import dev.tokentrace.report.model.Numbers;
import dev.tokentrace.report.model.ReportEvidence;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Scales and axis ticks for the report's hand-written SVG charts: linear scales with 1-2-5 ticks,
 * logarithmic ones with ticks at 1, 2 and 5 times a power of ten, and compact labels for
 * milliseconds.
 */
final class SvgAxis {
  private SvgAxis() {}

  /** Maps [min, max] (log10 when {@code log}) onto pixels [from, to]. */
  record Scale(double min, double max, double from, double to, boolean log) {
    double at(double value) {
      double lo = log ? Math.log10(min) : min;
      double hi = log ? Math.log10(max) : max;
      double v = log ? Math.log10(Math.max(value, min)) : value;
      double span = hi - lo == 0 ? 1 : hi - lo;
      return from + (v - lo) / span * (to - from);
    }
  }

  /** A linear scale from 0 (or below) to a round number at or above {@code max}. */
  static Scale linear(double min, double max, double from, double to) {
    double top = niceCeiling(max <= min ? min + 1 : max);
    return new Scale(Math.min(0, min), top, from, to, false);
  }

  /** A log scale over whole decades (or 1-2-5 steps) covering [min, max]. */
  static Scale log(double min, double max, double from, double to) {
    double lo = Math.pow(10, Math.floor(Math.log10(Math.max(min, 1e-3))));
    double hi = Math.pow(10, Math.ceil(Math.log10(Math.max(max, lo * 10))));
    return new Scale(lo, hi, from, to, true);
  }

  /** About {@code count} round ticks from the scale's min to its max. */
  static List<Double> ticks(Scale scale, int count) {
    List<Double> ticks = new ArrayList<>();
    if (scale.log()) {
      for (double decade = scale.min(); decade <= scale.max() * 1.0001; decade *= 10) {
        for (double step : new double[] {1, 2, 5}) {
          double tick = decade * step;
          if (tick <= scale.max() * 1.0001) {
            ticks.add(tick);
          }
        }
      }
      return ticks;
    }
    double step = niceCeiling((scale.max() - scale.min()) / count);
    for (int i = 0; scale.min() + i * step <= scale.max() + step / 1000; i++) {
      ticks.add(scale.min() + i * step);
    }
    return ticks;
  }

  /** The smallest 1, 2, 2.5 or 5 times a power of ten at or above {@code value}. */
  static double niceCeiling(double value) {
    if (value <= 0) {
      return 1;
    }
    double power = Math.pow(10, Math.floor(Math.log10(value)));
    for (double step : new double[] {1, 2, 2.5, 5, 10}) {
      if (step * power >= value * 0.9999) {
        return step * power;
      }
    }
    return 10 * power;
  }

  /** Milliseconds as a short label: 250 ms, 1.5 s, 12 s. */
  static String ms(double value) {
    if (value >= 1000) {
      double seconds = value / 1000;
      return seconds == Math.rint(seconds)
          ? String.format(Locale.ROOT, "%.0f s", seconds)
          : String.format(Locale.ROOT, "%.1f s", seconds);
    }
    return value == Math.rint(value)
        ? String.format(Locale.ROOT, "%.0f ms", value)
        : String.format(Locale.ROOT, "%.1f ms", value);
  }

  /** A plain tick number: 4, 2.5, 0.1. */
  static String plain(double value) {
    return value == Math.rint(value)
        ? String.format(Locale.ROOT, "%.0f", value)
        : String.format(Locale.ROOT, "%.1f", value);
  }

  /**
   * The time axis of the timeline charts: a vertical grid line and a label in seconds at each of
   * about eight round ticks within the scale.
   */
  static void secondsGrid(StringBuilder svg, Scale x, int top, int bottom) {
    for (double tick : ticks(x, 8)) {
      if (tick > x.max()) {
        break;
      }
      svg.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%s\" y1=\"%d\" x2=\"%s\" y2=\"%d\" class=\"gr\"/>",
              Html.num(x.at(tick)),
              top,
              Html.num(x.at(tick)),
              bottom));
      svg.append(SvgComponentBars.label((int) x.at(tick), bottom + 16, plain(tick), "middle"));
    }
  }

  /** A horizontal grid line across [left, right] at {@code tick} of {@code y}, labelled left. */
  static void horizontalGrid(
      StringBuilder svg, Scale y, double tick, int left, int right, String label) {
    svg.append(
        String.format(
            Locale.ROOT,
            "<line x1=\"%d\" y1=\"%s\" x2=\"%d\" y2=\"%s\" class=\"gr\"/>",
            left,
            Html.num(y.at(tick)),
            right,
            Html.num(y.at(tick))));
    svg.append(SvgComponentBars.label(left - 6, (int) y.at(tick) + 4, label, "end"));
  }

  /**
   * A slow request's band on a timeline of {@code instance} that starts at {@code start}: its start
   * and end in pixels, clipped to the scale, or null when the request is another instance's, has no
   * aligned start or end-to-end time, or falls outside the chart.
   */
  static double @Nullable [] slowBand(
      Scale x, Instant start, ReportEvidence.SlowRequest request, String instance) {
    Instant aligned = request.alignedStartTs();
    Double e2eMs = request.clientE2eMs();
    if (!instance.equals(request.instance()) || aligned == null || e2eMs == null) {
      return null;
    }
    double from = (aligned.toEpochMilli() - start.toEpochMilli()) / 1000.0;
    double x1 = Math.max(x.at(from), x.from());
    double x2 = Math.min(x.at(from + e2eMs / 1000), x.to());
    return x2 <= x1 ? null : new double[] {x1, x2};
  }

  /** The shaded rectangle of a slow request's band, its tooltip {@code #rank key: E2E … ms…}. */
  static String slowRect(
      double x1,
      double x2,
      int top,
      int bottom,
      int rank,
      ReportEvidence.SlowRequest request,
      String titleTail) {
    return String.format(
        Locale.ROOT,
        "<rect x=\"%s\" y=\"%d\" width=\"%s\" height=\"%d\" fill=\"#e4572e\""
            + " fill-opacity=\"0.13\" stroke=\"#e4572e\" stroke-opacity=\"0.5\"><title>#%d %s:"
            + " E2E %s ms%s</title></rect>",
        Html.num(x1),
        top,
        Html.num(x2 - x1),
        bottom - top,
        rank + 1,
        Html.text(request.requestKey()),
        Numbers.ms(request.clientE2eMs()),
        titleTail);
  }
}
