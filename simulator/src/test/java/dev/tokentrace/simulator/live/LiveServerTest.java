package dev.tokentrace.simulator.live;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tokentrace.event.Engine;
import dev.tokentrace.simulator.ArrivalMode;
import dev.tokentrace.simulator.ClientSettings;
import dev.tokentrace.simulator.Distribution;
import dev.tokentrace.simulator.IdScheme;
import dev.tokentrace.simulator.NetworkSettings;
import dev.tokentrace.simulator.ServerSettings;
import dev.tokentrace.simulator.SimulationSettings;
import dev.tokentrace.simulator.WorkloadSettings;
import dev.tokentrace.simulator.output.Api;
import dev.tokentrace.simulator.output.ClientFormat;
import dev.tokentrace.simulator.output.EngineFormat;
import dev.tokentrace.simulator.output.OutputSettings;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live server as a benchmark client meets it (docs/formats/vllm.md#openai-server-endpoints):
 * {@code /health} and {@code /v1/models} as vLLM answers them, a chat request whose content is an
 * array of content parts, and the logged clock (docs/live.md#simulated-server).
 */
final class LiveServerTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int MAX_MODEL_LEN = 64;

  @TempDir Path dir;

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
            MAX_MODEL_LEN,
            0);
    ServerSettings server =
        new ServerSettings(2, 64, true, true, 0.1, 0, 0, 0, 0, 1024, 16, false, 0);
    NetworkSettings network =
        new NetworkSettings(new Distribution.Fixed(0), new Distribution.Fixed(0), -1, 0, 0);
    ClientSettings client = new ClientSettings(0, 0, 0, 0, false, IdScheme.PREFIX_INDEX, "", false);
    return new SimulationSettings(1, workload, server, network, client);
  }

  private LiveServer start() throws Exception {
    OutputSettings output =
        new OutputSettings(
            EngineFormat.latest(Engine.VLLM),
            Instant.EPOCH,
            ZoneOffset.UTC,
            true,
            false,
            false,
            false,
            ClientFormat.CSV,
            Api.CHAT,
            0,
            1,
            false);
    return LiveServer.start(
        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), dir, fastModel(), output);
  }

  private static HttpResponse<String> send(LiveServer server, HttpRequest.Builder request)
      throws Exception {
    return HttpClient.newHttpClient()
        .send(
            request.timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static URI uri(LiveServer server, String path) {
    return URI.create("http://127.0.0.1:" + server.port() + path);
  }

  @Test
  void answersHealthAndModelsAsVllmDoes() throws Exception {
    try (LiveServer server = start()) {
      HttpResponse<String> health = send(server, HttpRequest.newBuilder(uri(server, "/health")));
      assertThat(health.statusCode()).isEqualTo(200);
      assertThat(health.body()).isEmpty();

      HttpResponse<String> models = send(server, HttpRequest.newBuilder(uri(server, "/v1/models")));
      assertThat(models.statusCode()).isEqualTo(200);
      assertThat(models.headers().firstValue("Content-Type")).hasValue("application/json");
      JsonNode list = JSON.readTree(models.body());
      assertThat(list.path("object").asText()).isEqualTo("list");
      assertThat(list.path("data")).hasSize(1);
      JsonNode card = list.path("data").get(0);
      assertThat(card.path("id").asText()).isEqualTo("simulated");
      assertThat(card.path("object").asText()).isEqualTo("model");
      assertThat(card.path("owned_by").asText()).isEqualTo("vllm");
      assertThat(card.path("root").asText()).isEqualTo("simulated");
      assertThat(card.path("parent").isNull()).isTrue();
      assertThat(card.path("max_model_len").asInt()).isEqualTo(MAX_MODEL_LEN);
      assertThat(card.path("created").canConvertToLong()).isTrue();
      JsonNode permission = card.path("permission").get(0);
      assertThat(permission.path("id").asText()).startsWith("modelperm-");
      assertThat(permission.path("object").asText()).isEqualTo("model_permission");
      assertThat(permission.path("allow_sampling").asBoolean()).isTrue();
      assertThat(permission.path("organization").asText()).isEqualTo("*");
      assertThat(permission.path("group").isNull()).isTrue();

      HttpResponse<String> post =
          send(
              server,
              HttpRequest.newBuilder(uri(server, "/v1/models"))
                  .POST(HttpRequest.BodyPublishers.noBody()));
      assertThat(post.statusCode()).isEqualTo(405);
    }
  }

  @Test
  void servesChatWhoseContentIsAnArrayOfParts() throws Exception {
    try (LiveServer server = start()) {
      String body =
          "{\"model\":\"simulated\",\"max_tokens\":3,\"messages\":[{\"role\":\"user\","
              + "\"content\":[{\"type\":\"text\",\"text\":\"one two three\"}]}]}";
      HttpResponse<String> response =
          send(
              server,
              HttpRequest.newBuilder(uri(server, "/v1/chat/completions"))
                  .header("Content-Type", "application/json")
                  .header("X-Request-Id", "parts-1")
                  .POST(HttpRequest.BodyPublishers.ofString(body)));

      assertThat(response.statusCode()).isEqualTo(200);
      JsonNode usage = JSON.readTree(response.body()).path("usage");
      assertThat(usage.path("prompt_tokens").asInt()).isEqualTo(3);
      assertThat(usage.path("completion_tokens").asInt()).isEqualTo(3);
    }
  }

  @Test
  void logsTimesOnTheHostClock() throws Exception {
    try (LiveServer server = start()) {
      Instant before = Instant.now();
      Instant logged = server.loggedNow();
      Instant after = Instant.now();

      // one anchor for wall and monotonic time: the logged now lies between two host-clock reads
      // (1 ms of slack for the wall clock's granularity), however long the server took to start
      assertThat(logged).isBetween(before.minusMillis(1), after.plusMillis(1));
    }
  }
}
