package dev.tokentrace.clients;

import dev.tokentrace.event.RequestKeys;

/**
 * The request key of a server response {@code id} as a client recorded it (GuideLLM {@code
 * response_id}, the SSE {@code id} in GenAI-Perf outputs).
 *
 * <p>It is {@link RequestKeys#normalize} of the engine-side form of that ID. vLLM's completions
 * endpoint answers {@code cmpl-<base>} while its engine and logs carry {@code cmpl-<base>-<i>}, one
 * per prompt (docs/formats/vllm.md#request-ids). {@code normalize} strips a trailing {@code
 * -<digits>} from {@code cmpl-} IDs as that prompt index, so on a response ID whose base itself
 * ends in digits ({@code cmpl-bench-1a2b3c4d-17}, a vLLM bench ID echoed back) it would strip part
 * of the base. Adding the index of the first prompt, {@code -0}, gives the engine-side form, which
 * normalizes to exactly {@code <base>}; for any other ID this is the identity.
 */
public final class ResponseIds {
  private ResponseIds() {}

  public static String key(String responseId) {
    String id = responseId.strip();
    if (id.startsWith("cmpl-") && id.length() > "cmpl-".length()) {
      return RequestKeys.normalize(id + "-0");
    }
    return RequestKeys.normalize(id);
  }
}
