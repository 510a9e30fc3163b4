package dev.tokentrace.simulator.live;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.tokentrace.simulator.LiveEngine;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * The two GET endpoints benchmark clients call before they send load, answered as vLLM's OpenAI
 * server does (docs/formats/vllm.md#openai-server-endpoints): {@code /health} (200 with an empty
 * body while the engine runs, 503 once it died) and {@code /v1/models} (one model card, the served
 * model). Thread-safe.
 */
final class ServerInfo implements HttpHandler {
  static final String HEALTH = "/health";
  static final String MODELS = "/v1/models";

  private static final ObjectMapper JSON = new ObjectMapper();

  private final LiveEngine engine;
  private final byte[] models;

  ServerInfo(LiveEngine engine, int maxModelLen) {
    this.engine = engine;
    this.models = modelList(maxModelLen, System.currentTimeMillis() / 1000);
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String path = exchange.getRequestURI().getPath();
      if (!"GET".equals(exchange.getRequestMethod())) {
        Replies.send(
            exchange,
            405,
            "application/json",
            SseChunks.error(405, "method not allowed: use GET").getBytes(StandardCharsets.UTF_8));
      } else if (HEALTH.equals(path)) {
        int status = engine.failure() == null ? 200 : 503;
        exchange.sendResponseHeaders(status, -1); // no body, as vLLM's Response(status_code=200)
      } else if (MODELS.equals(path)) {
        Replies.send(exchange, 200, "application/json", models);
      } else {
        Replies.send(
            exchange,
            404,
            "application/json",
            SseChunks.error(404, "not found: " + path).getBytes(StandardCharsets.UTF_8));
      }
    }
  }

  /**
   * vLLM's {@code ModelList} with one {@code ModelCard} and its default {@code ModelPermission}.
   */
  static byte[] modelList(int maxModelLen, long created) {
    ObjectNode list = JSON.createObjectNode();
    list.put("object", "list");
    ObjectNode card = list.putArray("data").addObject();
    card.put("id", SseChunks.MODEL);
    card.put("object", "model");
    card.put("created", created);
    card.put("owned_by", "vllm");
    card.put("root", SseChunks.MODEL);
    card.putNull("parent");
    card.put("max_model_len", maxModelLen);
    ArrayNode permissions = card.putArray("permission");
    ObjectNode permission = permissions.addObject();
    permission.put("id", "modelperm-" + Long.toHexString(new SplittableRandom().nextLong()));
    permission.put("object", "model_permission");
    permission.put("created", created);
    permission.put("allow_create_engine", false);
    permission.put("allow_sampling", true);
    permission.put("allow_logprobs", true);
    permission.put("allow_search_indices", false);
    permission.put("allow_view", true);
    permission.put("allow_fine_tuning", false);
    permission.put("organization", "*");
    permission.putNull("group");
    permission.put("is_blocking", false);
    try {
      return JSON.writeValueAsBytes(list);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }
}
