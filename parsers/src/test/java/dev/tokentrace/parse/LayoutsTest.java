package dev.tokentrace.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** The layout stage alone (docs/formats/layouts.md); lines composed by us. */
final class LayoutsTest {
  private static final Instant COLLECTOR = Instant.parse("2026-01-02T03:04:05.123Z");

  private final Layouts layouts = new Layouts(ZoneOffset.UTC, false);

  @Test
  void aLineWithoutLayoutsIsHandedOnAsItIs() {
    for (String line :
        new String[] {
          "INFO 01-02 03:04:05 [loggers.py:1] Engine 000: Avg prompt throughput: 1.0 tokens/s",
          "[2026-01-02 03:04:05 TP0] Decode batch. #running-req: 1",
          "[2026-01-02 03:04:05] [DP9 TP9 scheduler.py:860] Decode batch. #running-req: 1",
          "[01/02/2026-03:04:05] [TRT-LLM] [I] iter = 1",
          "(APIServer pid=1) INFO 01-02 03:04:05 [api_server.py:1] ok",
          "",
        }) {
      assertThat(layouts.strip(line, null)).as(line).isFalse();
      assertThat(layouts.text()).isSameAs(line);
      assertThat(layouts.level()).isNull();
    }
  }

  @Test
  void anEngineHeaderAfterACollectorTimeIsNoDynamoLayout() {
    String line = "INFO 01-02 03:04:05 [loggers.py:1] Running: 1 reqs";
    assertThat(layouts.strip(line, COLLECTOR)).isFalse();
    assertThat(layouts.text()).isSameAs(line);
    assertThat(layouts.ts()).isEqualTo(COLLECTOR);
  }

  @Test
  void dynamosLevelAndTargetComeOffAfterItsTime() {
    assertThat(layouts.strip(" INFO main.init: Decode batch. #running-req: 1", COLLECTOR)).isTrue();
    assertThat(layouts.text()).isEqualTo("Decode batch. #running-req: 1");
    assertThat(layouts.level()).isEqualTo("INFO");
    assertThat(layouts.ts()).isEqualTo(COLLECTOR);
    assertThat(layouts.layouts()).isEqualTo("dynamo");

    layouts.strip("WARN dynamo_runtime::pipeline: Using default gpus_per_node: 8", COLLECTOR);
    assertThat(layouts.level()).isEqualTo("WARNING");
    assertThat(layouts.text()).isEqualTo("Using default gpus_per_node: 8");

    // without a time before it, a line that looks so is the engine's
    assertThat(layouts.strip(" INFO main.init: x", null)).isFalse();
  }

  @Test
  void raysDedupSuffixAndHintComeOff() {
    layouts.strip("(pid=7) INFO 01-02 03:04:05 [a.py:1] x [repeated 12x across cluster]", null);
    assertThat(layouts.text()).isEqualTo("(pid=7) INFO 01-02 03:04:05 [a.py:1] x");
    assertThat(layouts.layouts()).isEqualTo("ray-dedup");

    layouts.strip(
        "(pid=7) x [repeated 2x across cluster] (Ray deduplicates logs by default. Set"
            + " RAY_DEDUP_LOGS=0 to disable log deduplication, or see https://docs.ray.io/ for"
            + " more options.)",
        null);
    assertThat(layouts.text()).isEqualTo("(pid=7) x");

    assertThat(layouts.strip("x [repeated many across cluster]", null)).isFalse();
  }

  @Test
  void aBracketedDateLocationAndLevelComeOffWithTheirTime() {
    Layouts local = new Layouts(ZoneId.of("Europe/Berlin"), false);
    assertThat(local.strip("[2026-01-02 04:04:05,500][scheduler.py:860][WARNING]: body", null))
        .isTrue();
    assertThat(local.text()).isEqualTo("body");
    assertThat(local.level()).isEqualTo("WARNING");
    assertThat(local.ts()).isEqualTo(Instant.parse("2026-01-02T03:04:05.500Z"));

    local.strip("[2026-01-02T03:04:05Z] [a.py:1] [INFO] body", COLLECTOR);
    assertThat(local.ts()).isEqualTo(Instant.parse("2026-01-02T03:04:05Z"));

    // an impossible date: the layout comes off, the collector's time stays
    local.strip("[2026-13-02 03:04:05][a.py:1][INFO]: body", COLLECTOR);
    assertThat(local.text()).isEqualTo("body");
    assertThat(local.ts()).isEqualTo(COLLECTOR);
  }

  @Test
  void colourCodesGoAnywhereAndProcessTagsOnlyWhereAsked() {
    Layouts tags = new Layouts(ZoneOffset.UTC, true);
    assertThat(tags.strip("\u001B[36m(Worker_TP1 pid=9, ip=10.0.0.2)\u001B[0m [TRT-LLM] x", null))
        .isTrue();
    assertThat(tags.text()).isEqualTo("[TRT-LLM] x");
    assertThat(tags.layouts()).isEqualTo("ansi+process-tag");

    assertThat(layouts.strip("(Worker_TP1 pid=9) x", null)).isFalse();
  }
}
