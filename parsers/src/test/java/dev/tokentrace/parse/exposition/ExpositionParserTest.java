package dev.tokentrace.parse.exposition;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Lines composed by us to the text format (docs/formats/metrics.md#text-exposition). */
final class ExpositionParserTest {
  @Test
  void readsNameLabelsValueAndTimestamp() {
    ExpositionParser.Result result =
        ExpositionParser.parse(
            "vllm:num_requests_running{model_name=\"m\", engine=\"0\",} 3 1796119200000");
    assertThat(result)
        .isEqualTo(
            new ExpositionParser.Sample(
                new ExpositionLine(
                    "vllm:num_requests_running",
                    Map.of("model_name", "m", "engine", "0"),
                    3.0,
                    1796119200000L)));
  }

  @Test
  void resolvesTheThreeEscapesInLabelValues() {
    ExpositionLine line =
        ((ExpositionParser.Sample)
                ExpositionParser.parse("x{a=\"say \\\"hi\\\"\",b=\"c:\\\\d\",n=\"1\\n2\"} 1"))
            .line();
    assertThat(line.label("a")).isEqualTo("say \"hi\"");
    assertThat(line.label("b")).isEqualTo("c:\\d");
    assertThat(line.label("n")).isEqualTo("1\n2");
    assertThat(line.timestampMs()).isNull();
  }

  @Test
  void readsNanAndInfinities() {
    assertThat(value("x NaN")).isNaN();
    assertThat(value("x_bucket{le=\"+Inf\"} +Inf")).isInfinite().isPositive();
    assertThat(value("x -Inf")).isInfinite().isNegative();
    assertThat(value("x 1.5e3")).isEqualTo(1500.0);
  }

  @Test
  void readsTypeLinesAndTreatsOtherCommentsAndBlanksAsComments() {
    assertThat(ExpositionParser.parse("# TYPE vllm:e2e_request_latency_seconds histogram"))
        .isEqualTo(new ExpositionParser.Type("vllm:e2e_request_latency_seconds", "histogram"));
    assertThat(ExpositionParser.parse("# HELP x some text"))
        .isInstanceOf(ExpositionParser.Comment.class);
    assertThat(ExpositionParser.parse("   ")).isInstanceOf(ExpositionParser.Comment.class);
  }

  static Stream<Arguments> badLines() {
    return Stream.of(
        Arguments.of("1x 3", "bad metric name"),
        Arguments.of("x{1a=\"b\"} 3", "bad label name"),
        Arguments.of("x{a=b} 3", "label a: expected =\""),
        Arguments.of("x{a=\"b} 3", "label value not closed"),
        Arguments.of("x{a=\"\\t\"} 3", "bad escape \\t in a label value"),
        Arguments.of("x{a=\"1\",a=\"2\"} 3", "label a twice"),
        Arguments.of("x{a=\"1\" b=\"2\"} 3", "label set not closed"),
        Arguments.of("x", "no value"),
        Arguments.of("x Infinity", "bad value 'Infinity'"),
        Arguments.of("x 0x1p3", "bad value '0x1p3'"),
        Arguments.of("x 1.2.3", "bad value '1.2.3'"),
        Arguments.of("x 1 soon", "bad timestamp 'soon'"),
        Arguments.of("x 1 2 3", "text after the timestamp"),
        Arguments.of("# TYPE x", "bad # TYPE line"));
  }

  @ParameterizedTest
  @MethodSource("badLines")
  void rejectsWithAReason(String line, String reason) {
    assertThat(ExpositionParser.parse(line)).isEqualTo(new ExpositionParser.Invalid(reason));
  }

  private static double value(String line) {
    return ((ExpositionParser.Sample) ExpositionParser.parse(line)).line().value();
  }
}
