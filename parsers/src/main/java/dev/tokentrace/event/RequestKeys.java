package dev.tokentrace.event;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one request-ID normalization shared by server and client sides: {@code request_key} is the ID
 * the client chose, recovered from whatever the engine made of it.
 *
 * <p>vLLM turns a client's {@code X-Request-Id: abc} into {@code chatcmpl-abc} (chat) or {@code
 * cmpl-abc-<i>} (completions, one per prompt), V1 children of {@code n > 1} into {@code
 * <i>_chatcmpl-abc}, and since 2025-12-23 (vLLM f79006860, #27987, v0.16.0) engine-side IDs into
 * {@code chatcmpl-abc-<8 hex>} (docs/formats/vllm.md#request-ids). {@link #normalize} strips the
 * prefixes and the prompt index; it leaves IDs without an engine prefix (AIPerf UUIDs, vLLM bench
 * {@code bench-1a2b3c4d-17}, SGLang rids, TensorRT-LLM IDs) unchanged, so it is safe on client IDs.
 *
 * <p>The 8-hex engine suffix is not stripped by {@link #normalize}: a client ID may itself end in
 * {@code -<8 hex>}, and only the engine-side line ({@code Added request}) carries the suffix. The
 * vLLM parser calls {@link #withoutEngineSuffix} where it knows the ID is engine-side.
 */
public final class RequestKeys {
  /** Chat IDs between 2024-07-23 and 2024-10-22 were {@code chat-<32 hex>} (vLLM 739b61a34). */
  private static final int OLD_CHAT_HEX = 32;

  private static final Pattern ENGINE_SUFFIX = Pattern.compile("^(.+)-[0-9a-f]{8}$");

  private RequestKeys() {}

  /**
   * The request key for an ID as a client sent it or as the engine reports it externally. Scans by
   * hand instead of with regexes: it runs once per request line on the ingest hot path.
   */
  public static String normalize(String id) {
    String key = withoutChildPrefix(id.strip());
    if (key.startsWith("chatcmpl-") && key.length() > "chatcmpl-".length()) {
      return key.substring("chatcmpl-".length());
    }
    if (key.startsWith("cmpl-") && key.length() > "cmpl-".length()) {
      // completions: one engine request per prompt, cmpl-<base>-<promptIndex>; chat before
      // 2024-07-23 used cmpl-<base> with no index (docs/formats/vllm.md#request-ids)
      int dash = key.lastIndexOf('-');
      boolean indexed = dash > "cmpl-".length() && dash < key.length() - 1 && digits(key, dash + 1);
      return key.substring("cmpl-".length(), indexed ? dash : key.length());
    }
    if (key.startsWith("chat-")
        && key.length() == "chat-".length() + OLD_CHAT_HEX
        && lowerHex(key, "chat-".length())) {
      return key.substring("chat-".length());
    }
    return key;
  }

  /**
   * vLLM V1 parallel-sampling child {@code <i>_<parent>}, stripped only before an engine prefix.
   */
  private static String withoutChildPrefix(String id) {
    int end = 0;
    while (end < id.length() && Character.isDigit(id.charAt(end)) && id.charAt(end) < 128) {
      end++;
    }
    if (end == 0 || end >= id.length() || id.charAt(end) != '_') {
      return id;
    }
    String rest = id.substring(end + 1);
    boolean engine =
        rest.startsWith("chatcmpl-") || rest.startsWith("cmpl-") || rest.startsWith("chat-");
    return engine ? rest : id;
  }

  private static boolean digits(String text, int from) {
    for (int i = from; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    return true;
  }

  private static boolean lowerHex(String text, int from) {
    for (int i = from; i < text.length(); i++) {
      char c = text.charAt(i);
      if (!(c >= '0' && c <= '9') && !(c >= 'a' && c <= 'f')) {
        return false;
      }
    }
    return true;
  }

  /** {@code id} without a trailing {@code -<8 lower-case hex>}, or {@code id} when it has none. */
  public static String withoutEngineSuffix(String id) {
    Matcher matcher = ENGINE_SUFFIX.matcher(id);
    return matcher.matches() ? matcher.group(1) : id;
  }

  /** True when {@code id} ends in {@code -<8 lower-case hex>}. */
  public static boolean hasEngineSuffix(String id) {
    return ENGINE_SUFFIX.matcher(id).matches();
  }
}
