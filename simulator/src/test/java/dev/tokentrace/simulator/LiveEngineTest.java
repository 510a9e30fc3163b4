package dev.tokentrace.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The live engine on a model with 0.1-ms steps: every request gets its tokens in order, the last
 * one flagged, and the observer sees each request's life in a consistent order. No timing is
 * asserted beyond "before" and "after"; waits have a generous deadline for loaded machines.
 */
final class LiveEngineTest {
  private static final long DEADLINE_S = 60;

  private static SimulationSettings fastModel() {
    WorkloadSettings workload =
        new WorkloadSettings(
            1,
            List.of(1),
            ArrivalMode.CLOSED,
            1,
            0,
            0,
            new Distribution.Fixed(8),
            new Distribution.Fixed(2),
            64,
            0);
    ServerSettings server =
        new ServerSettings(2, 64, true, true, 0.1, 0, 0, 0, 0, 1024, 16, false, 0);
    NetworkSettings network =
        new NetworkSettings(new Distribution.Fixed(0), new Distribution.Fixed(0), -1, 0, 0);
    ClientSettings client = new ClientSettings(0, 0, 0, 0, false, IdScheme.PREFIX_INDEX, "", false);
    return new SimulationSettings(1, workload, server, network, client);
  }

  private record Token(String id, int generated, boolean last) {}

  private static final class Finished implements SimObserver {
    final List<String> arrived = new CopyOnWriteArrayList<>();
    final Map<String, long[]> times = new ConcurrentHashMap<>();

    @Override
    public void serverArrival(RequestView request, ServerView server) {
      arrived.add(request.clientId());
    }

    @Override
    public void serverFinished(RequestView request, ServerView server) {
      times.put(
          request.clientId(),
          new long[] {
            request.serverArrivalUs(),
            request.firstScheduledUs(),
            request.firstTokenUs(),
            request.lastTokenUs(),
            request.generatedTokens()
          });
    }
  }

  @Test
  void streamsEveryTokenInOrderAndRecordsWhatItDid() throws Exception {
    Finished observer = new Finished();
    BlockingQueue<Token> tokens = new LinkedBlockingQueue<>();
    try (LiveEngine engine = new LiveEngine(fastModel(), observer)) {
      engine.start();
      for (int i = 0; i < 4; i++) {
        String id = "r" + i;
        engine.submit(
            new LiveEngine.Submission(id, 5, 3 + i, i),
            (generated, last) -> tokens.add(new Token(id, generated, last)));
      }
      List<Token> received = new ArrayList<>();
      while (received.stream().filter(Token::last).count() < 4) {
        Token token = tokens.poll(DEADLINE_S, TimeUnit.SECONDS);
        assertThat(token).as("a token within " + DEADLINE_S + " s").isNotNull();
        received.add(token);
      }
      for (int i = 0; i < 4; i++) {
        String id = "r" + i;
        List<Token> mine = received.stream().filter(token -> token.id().equals(id)).toList();
        assertThat(mine).extracting(Token::generated).containsExactly(range(3 + i));
        assertThat(mine).extracting(Token::last).containsOnlyOnce(true).last().isEqualTo(true);
      }
    }
    assertThat(observer.arrived).containsExactlyInAnyOrder("r0", "r1", "r2", "r3");
    assertThat(observer.times)
        .hasSize(4)
        .allSatisfy(
            (id, times) -> {
              assertThat(times[1]).as("scheduled after arrival").isGreaterThanOrEqualTo(times[0]);
              assertThat(times[2]).as("first token after scheduling").isGreaterThan(times[1]);
              assertThat(times[3]).as("last token after first").isGreaterThan(times[2]);
            });
    assertThat(observer.times.get("r3")[4]).isEqualTo(6);
  }

  private static Integer[] range(int count) {
    Integer[] values = new Integer[count];
    for (int i = 0; i < count; i++) {
      values[i] = i + 1;
    }
    return values;
  }
}
