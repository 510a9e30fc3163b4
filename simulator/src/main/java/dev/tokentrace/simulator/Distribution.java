package dev.tokentrace.simulator;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A random quantity (token counts, delays in ms) written as {@code fixed:N}, {@code
 * uniform:MIN,MAX}, {@code lognormal:MEDIAN,SIGMA} or {@code choice:A,B,...}. Sampling uses {@link
 * StrictMath} so the same seed gives the same values on every platform.
 */
public sealed interface Distribution {
  /** One value; never negative. */
  double sample(SplittableRandom random);

  /** The spec this distribution was parsed from, normalized. */
  String spec();

  /**
   * Parses a spec.
   *
   * @throws IllegalArgumentException naming the spec and the accepted forms
   */
  static Distribution parse(String spec) {
    requireNonNull(spec, "spec is null");
    int colon = spec.indexOf(':');
    String kind = colon < 0 ? spec.strip() : spec.substring(0, colon).strip();
    List<Double> args = colon < 0 ? List.of() : numbers(spec, spec.substring(colon + 1));
    switch (kind) {
      case "fixed":
        expect(spec, args.size() == 1);
        return new Fixed(args.get(0));
      case "uniform":
        expect(spec, args.size() == 2 && args.get(0) <= args.get(1));
        return new Uniform(args.get(0), args.get(1));
      case "lognormal":
        expect(spec, args.size() == 2 && args.get(0) > 0);
        return new LogNormal(args.get(0), args.get(1));
      case "choice":
        expect(spec, !args.isEmpty());
        return new Choice(args);
      default:
        throw bad(spec);
    }
  }

  private static List<Double> numbers(String spec, String text) {
    List<Double> values = new ArrayList<>();
    for (String part : text.split(",", -1)) {
      try {
        double value = Double.parseDouble(part.strip());
        expect(spec, Double.isFinite(value) && value >= 0);
        values.add(value);
      } catch (NumberFormatException e) {
        throw bad(spec);
      }
    }
    return values;
  }

  private static void expect(String spec, boolean condition) {
    if (!condition) {
      throw bad(spec);
    }
  }

  private static IllegalArgumentException bad(String spec) {
    return new IllegalArgumentException(
        "bad distribution '"
            + spec
            + "' (use fixed:N, uniform:MIN,MAX, lognormal:MEDIAN,SIGMA or choice:A,B,...;"
            + " values >= 0)");
  }

  private static String number(double value) {
    return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
  }

  /** Always {@code value}. */
  record Fixed(double value) implements Distribution {
    @Override
    public double sample(SplittableRandom random) {
      return value;
    }

    @Override
    public String spec() {
      return "fixed:" + number(value);
    }
  }

  /** Uniform on {@code [min, max]}. */
  record Uniform(double min, double max) implements Distribution {
    @Override
    public double sample(SplittableRandom random) {
      return min + (max - min) * random.nextDouble();
    }

    @Override
    public String spec() {
      return "uniform:" + number(min) + "," + number(max);
    }
  }

  /** {@code median * exp(sigma * Z)}, Z standard normal (Box-Muller). */
  record LogNormal(double median, double sigma) implements Distribution {
    @Override
    public double sample(SplittableRandom random) {
      double u1 = 1.0 - random.nextDouble(); // in (0, 1], so the log is finite
      double u2 = random.nextDouble();
      double z = StrictMath.sqrt(-2.0 * StrictMath.log(u1)) * StrictMath.cos(2.0 * Math.PI * u2);
      return median * StrictMath.exp(sigma * z);
    }

    @Override
    public String spec() {
      return "lognormal:" + number(median) + "," + number(sigma);
    }
  }

  /** One of the values, each equally likely. */
  record Choice(List<Double> values) implements Distribution {
    public Choice {
      values = List.copyOf(values);
    }

    @Override
    public double sample(SplittableRandom random) {
      return values.get(random.nextInt(values.size()));
    }

    @Override
    public String spec() {
      StringBuilder text = new StringBuilder("choice:");
      for (int i = 0; i < values.size(); i++) {
        text.append(i == 0 ? "" : ",").append(number(values.get(i)));
      }
      return text.toString();
    }
  }
}
