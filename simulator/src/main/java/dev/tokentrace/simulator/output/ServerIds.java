package dev.tokentrace.simulator.output;

import dev.tokentrace.simulator.Ids;
import dev.tokentrace.simulator.RequestView;

/**
 * The IDs each engine shows for an attempt, derived only from the attempt (client ID or nonce), so
 * the server writers and the client writers agree.
 */
final class ServerIds {
  private ServerIds() {}

  /**
   * vLLM external ID ({@code Received request}, OTLP {@code gen_ai.request.id}): {@code
   * chatcmpl-<base>} or {@code cmpl-<base>-0}, base = X-Request-Id (honored since ≈v0.6.5), else
   * random: 32 hex before 2025-11-25, 16 hex after (docs/formats/vllm.md#request-ids).
   */
  static String vllmExternal(RequestView request, EngineFormat format, Api api) {
    String base = request.sendsId() ? request.clientId() : vllmRandomBase(request, format);
    return api == Api.CHAT ? "chatcmpl-" + base : "cmpl-" + base + "-0";
  }

  /** vLLM response {@code id} (what a client sees): completions drop the prompt index. */
  static String vllmResponseId(RequestView request, EngineFormat format, Api api) {
    String base = request.sendsId() ? request.clientId() : vllmRandomBase(request, format);
    return api == Api.CHAT ? "chatcmpl-" + base : "cmpl-" + base;
  }

  /** vLLM engine-side ID ({@code Added request}): v0.16 appends {@code -<8 hex>} (#27987). */
  static String vllmInternal(RequestView request, EngineFormat format, Api api) {
    String external = vllmExternal(request, format, api);
    return format == EngineFormat.VLLM_0_16
        ? external + "-" + Ids.hex(Ids.mix(request.nonce() ^ 0x5eedL), 8)
        : external;
  }

  private static String vllmRandomBase(RequestView request, EngineFormat format) {
    long high = Ids.mix(request.nonce());
    return format == EngineFormat.VLLM_0_16
        ? Ids.hex(high, 16)
        : Ids.hex32(high, Ids.mix(request.nonce() + 1));
  }

  /**
   * SGLang rid: the body field {@code rid} when sent, else {@code uuid4().hex}
   * (docs/formats/sglang.md#request-ids).
   */
  static String sglangRid(RequestView request) {
    return request.sendsId()
        ? request.clientId()
        : Ids.hex32(Ids.mix(request.nonce()), Ids.mix(request.nonce() + 1));
  }

  /**
   * TensorRT-LLM LLM-API client id: a per-process counter ({@code /perf_metrics} {@code
   * request_id}); a client ID is never used (docs/formats/trtllm.md#request-ids).
   */
  static long trtllmRequestId(RequestView request) {
    return request.serverSeq();
  }

  /** TensorRT-LLM response id {@code chatcmpl-<uuid4 hex>}: HTTP response only, never logged. */
  static String trtllmResponseId(RequestView request) {
    return "chatcmpl-" + Ids.hex32(Ids.mix(request.nonce()), Ids.mix(request.nonce() + 1));
  }

  /** The ID the client knows the request by: its own, else the response id it got back. */
  static String clientSide(RequestView request, EngineFormat format, Api api) {
    if (request.sendsId()) {
      return request.clientId();
    }
    switch (format.engine()) {
      case VLLM:
        return vllmResponseId(request, format, api);
      case SGLANG:
        return sglangRid(request);
      case TRTLLM:
        return trtllmResponseId(request);
      default:
        throw new IllegalStateException("unhandled engine: " + format.engine());
    }
  }
}
