package dev.tokentrace.ingest.sink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.event.BatchStep;
import dev.tokentrace.event.Engine;
import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.Phase;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.ingest.kafka.Topics;
import dev.tokentrace.parse.ParseSettings;
import dev.tokentrace.parse.Parsers;
import dev.tokentrace.parse.Rejection;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The in-process load's shortcut for batch steps ({@link RecordWriter#asStored} without the JSON
 * round trip) stores exactly what the round trip gives, over random steps with the values that do
 * change in a round trip (sub-millisecond and five-digit-year times, lone surrogates).
 */
final class AsStoredTest {
  private static final String[] TEXTS = {
    "vllm-0", "Engine 003", "x\uD800y", "\uDC00", "é ü", "a\"b\\c\n", "\uD83D\uDE00 ok"
  };

  @Test
  void aBatchStepIsStoredAsItsRoundTripGivesIt() {
    RecordWriter writer = new RecordWriter(Topics.defaults());
    Random random = new Random(35);
    int shortcuts = 0;
    for (int i = 0; i < 3_000; i++) {
      BatchStep step = randomStep(random);
      EngineEvent stored = writer.asStored(step);
      assertThat(stored).as("step %s", step).isEqualTo(writer.roundTrip(step));
      if (stored == step) {
        shortcuts++;
      }
    }
    assertThat(shortcuts).isBetween(300, 2_700);
  }

  @Test
  void detectionLeavesRejectionsRedactedAfterwards() {
    ParseSettings settings = new ParseSettings("i", ZoneOffset.UTC, 2026);
    Parsers.detect(
        List.of("{\"not\":\"a log\", \"api_key\": \"sk-abcdefghijklmnopqrstuvwx\"}"), settings);
    Rejection rejection =
        Rejection.of(
            new SourcePosition("f", 1, 0), null, "bad", "api_key=sk-abcdefghijklmnopqrstuvwx");
    assertThat(rejection.excerpt())
        .doesNotContain("sk-abcdefghijklmnopqrstuvwx")
        .contains("api_key");
  }

  private static BatchStep randomStep(Random random) {
    return new BatchStep(
        Engine.values()[random.nextInt(Engine.values().length)],
        text(random),
        time(random),
        new SourcePosition(text(random), 1 + random.nextInt(1000), random.nextInt(1 << 20)),
        random.nextBoolean() ? null : text(random),
        random.nextBoolean() ? null : (long) random.nextInt(Integer.MAX_VALUE) * 7,
        Phase.values()[random.nextInt(Phase.values().length)],
        count(random),
        count(random),
        count(random),
        count(random),
        count(random),
        decimal(random),
        decimal(random),
        decimal(random),
        random.nextBoolean(),
        count(random),
        count(random));
  }

  private static String text(Random random) {
    return random.nextInt(4) == 0
        ? TEXTS[random.nextInt(TEXTS.length)]
        : "srv-" + random.nextInt(9);
  }

  private static Instant time(Random random) {
    switch (random.nextInt(6)) {
      case 0:
        return null;
      case 1:
        return Instant.ofEpochSecond(
            1_770_000_000L + random.nextInt(1 << 24), random.nextInt(1_000_000_000));
      case 2:
        return Instant.ofEpochSecond(253_402_300_800L + random.nextInt(1000), 0); // year 10000
      case 3:
        return Instant.ofEpochSecond(-30_610_224_000L - random.nextInt(1000), 0); // before 1000
      default:
        return Instant.ofEpochMilli(1_770_000_000_000L + random.nextInt(Integer.MAX_VALUE));
    }
  }

  private static Integer count(Random random) {
    return random.nextInt(3) == 0
        ? null
        : random.nextInt(5) == 0 ? Integer.MAX_VALUE : random.nextInt(4096);
  }

  private static Double decimal(Random random) {
    switch (random.nextInt(5)) {
      case 0:
        return null;
      case 1:
        return -0.0;
      case 2:
        return Double.MIN_VALUE * random.nextInt(100);
      case 3:
        return random.nextDouble() * 1e300;
      default:
        return random.nextInt(100_000) / 100.0;
    }
  }
}
