package dev.tokentrace.loadgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

final class PlanTest {
  @Test
  void warmupRequestsComeFirstAndAreMarked() {
    Plan plan = new Plan(2, 3, Long.MAX_VALUE);

    assertThat(plan.next(0)).isZero();
    assertThat(plan.next(0)).isEqualTo(1);
    assertThat(plan.next(0)).isEqualTo(2);
    assertThat(plan.warmup(1)).isTrue();
    assertThat(plan.warmup(2)).isFalse();
  }

  @Test
  void stopsAfterWarmupPlusMeasuredRequests() {
    Plan plan = new Plan(1, 2, Long.MAX_VALUE);

    assertThat(new long[] {plan.next(0), plan.next(0), plan.next(0), plan.next(0)})
        .containsExactly(0, 1, 2, -1);
  }

  @Test
  void durationEndsMeasuredRequestsButNotWarmup() {
    Plan plan = new Plan(2, Plan.UNLIMITED, 100);

    assertThat(plan.next(500)).isZero();
    assertThat(plan.next(500)).isEqualTo(1);
    assertThat(plan.next(500)).isEqualTo(-1);
    assertThat(plan.next(0)).as("over for good").isEqualTo(-1);
  }

  @Test
  void issuesWhileTheDurationLasts() {
    Plan plan = new Plan(0, Plan.UNLIMITED, 100);

    assertThat(plan.next(0)).isZero();
    assertThat(plan.next(99)).isEqualTo(1);
    assertThat(plan.next(100)).isEqualTo(-1);
  }

  @Test
  void stopEndsTheRun() {
    Plan plan = new Plan(0, 10, Long.MAX_VALUE);
    plan.stop();

    assertThat(plan.next(0)).isEqualTo(-1);
  }

  @Test
  void needsARequestCountOrADuration() {
    assertThatThrownBy(() -> new Plan(0, Plan.UNLIMITED, Long.MAX_VALUE))
        .hasMessage("give --requests or --duration (or both)");
  }
}
