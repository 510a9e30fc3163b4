package dev.tokentrace.parse.vllm;

import dev.tokentrace.event.RequestKeys;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Decides when an engine-side request ID carries vLLM's random 8-hex suffix ({@code
 * chatcmpl-abc-1a2b3c4d}, since f79006860, 2025-12-23, v0.16.0; docs/formats/vllm.md#request-ids)
 * and turns IDs into request keys. {@code Received request} IDs are external and never stripped. An
 * engine-side ID ({@code Added request}, abort and failure lines, shutdown rejections) is stripped
 * when
 *
 * <ol>
 *   <li>it is not itself a seen external ID, and
 *   <li>it ends in {@code -<8 hex>}, and
 *   <li>the ID without that suffix was seen in a {@code Received request} line, or this server was
 *       seen to add suffixes ({@code Added request X-1a2b3c4d} after {@code Received request X}).
 * </ol>
 *
 * A server seen to add no suffix ({@code Added request X} after {@code Received request X}) is
 * never stripped by the second rule. {@code n > 1} children ({@code 0_...}) are looked up without
 * their index. Remembers the most recent {@value #MAX_REMEMBERED} external IDs; not thread-safe.
 */
final class RequestIds {
  static final int MAX_REMEMBERED = 65_536;

  private final Map<String, Boolean> external =
      new LinkedHashMap<>() {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
          return size() > MAX_REMEMBERED;
        }
      };

  /** Whether this server adds engine suffixes: null until an Added line tells. */
  private @Nullable Boolean suffixing;

  /** A {@code Received request} ID (external). */
  String received(String id) {
    external.put(withoutChild(id), Boolean.TRUE);
    return RequestKeys.normalize(id);
  }

  /** Keys whose arrival an {@code Added request} line gave, so that n > 1 children count once. */
  private final Map<String, Boolean> admitted =
      new LinkedHashMap<>() {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
          return size() > MAX_REMEMBERED;
        }
      };

  /**
   * An {@code Added request} ID: learns whether this server adds suffixes. Returns the request key
   * when this line is the only arrival evidence of the request in this source (no {@code Received
   * request} for it, no earlier {@code Added} of another child), else null.
   */
  @Nullable String added(String id) {
    String base = withoutChild(id);
    if (external.containsKey(base)) {
      suffixing = Boolean.FALSE;
      return null;
    }
    if (RequestKeys.hasEngineSuffix(base)
        && external.containsKey(RequestKeys.withoutEngineSuffix(base))) {
      suffixing = Boolean.TRUE;
      return null;
    }
    String key = engineSideKey(id);
    return admitted.put(key, Boolean.TRUE) == null ? key : null;
  }

  /** The request key of an engine-side ID. */
  String engineSideKey(String id) {
    String base = withoutChild(id);
    if (external.containsKey(base) || !RequestKeys.hasEngineSuffix(base)) {
      return RequestKeys.normalize(id);
    }
    if (Boolean.TRUE.equals(suffixing)
        || external.containsKey(RequestKeys.withoutEngineSuffix(base))) {
      return RequestKeys.normalize(RequestKeys.withoutEngineSuffix(id));
    }
    return RequestKeys.normalize(id);
  }

  /**
   * The request key of an engine-side ID on a line that only the engine core writes (the NIXL read
   * lines, docs/formats/pd.md#vllm-nixl-debug-lines), whose server may log no request lines at all:
   * the 8-hex suffix is removed unless the ID is a seen external one or this server was seen to add
   * no suffix.
   */
  String engineCoreKey(String id) {
    String base = withoutChild(id);
    if (external.containsKey(base)
        || Boolean.FALSE.equals(suffixing)
        || !RequestKeys.hasEngineSuffix(base)) {
      return RequestKeys.normalize(id);
    }
    return RequestKeys.normalize(RequestKeys.withoutEngineSuffix(id));
  }

  /** {@code 3_chatcmpl-abc} without {@code 3_} (V1 parallel sampling child). */
  private static String withoutChild(String id) {
    int digits = Ascii.digitsEnd(id, 0);
    return digits > 0 && digits < id.length() - 1 && id.charAt(digits) == '_'
        ? id.substring(digits + 1)
        : id;
  }
}
