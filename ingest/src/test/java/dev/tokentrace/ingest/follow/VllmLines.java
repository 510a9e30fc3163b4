package dev.tokentrace.ingest.follow;

import java.util.Locale;

/**
 * vLLM log lines composed from the documented formats (docs/formats/vllm.md#record-header header,
 * docs/formats/vllm.md#request-lines request line of 2025-10-13 on): each request line becomes
 * exactly one request_arrived event whose request id carries the line's own serial number, so a
 * test can tell every line apart.
 */
final class VllmLines {
  private VllmLines() {}

  /** {@code INFO 03-02 10:MM:SS [logger.py:39] Received request req-<serial>: params: ...}. */
  static String request(String prefix, long serial) {
    return String.format(
        Locale.ROOT,
        "INFO 03-02 10:%02d:%02d [logger.py:39] Received request %s-%07d: params:"
            + " SamplingParams(max_tokens=16), lora_request: None.\n",
        (serial / 60) % 60,
        serial % 60,
        prefix,
        serial);
  }

  /** A warning followed by a traceback: one server_notice (two records), emitted late. */
  static String warningWithTraceback() {
    return "WARNING 03-02 10:00:11 [engine.py:1] step took long\n"
        + "Traceback (most recent call last):\n"
        + "  File \"x.py\", line 1, in <module>\n"
        + "ValueError: boom\n";
  }

  /** A line no vLLM format knows: rejected as {@code unrecognized line}. */
  static String garbage(long serial) {
    return "garbage line " + serial + " that no engine writes\n";
  }
}
