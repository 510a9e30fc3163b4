package dev.tokentrace.parse.trtllm;

import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * trtllm-serve's uvicorn lines: {@code INFO: 127.0.0.1:41166 - "POST /v1/chat/completions HTTP/1.1"
 * 200 OK} (docs/formats/trtllm.md#uvicorn-lines; no timestamp, no request id) and uvicorn's own
 * lifecycle lines at {@code INFO:}, {@code WARNING:}, {@code ERROR:}. vLLM and SGLang print the
 * same, so these are not TensorRT-LLM-specific.
 */
final class Uvicorn {
  static final String ACCESS_RULE = "trtllm: http access";
  private static final Pattern ACCESS =
      Pattern.compile("^\\S+:\\d+ - \"[A-Z]+ \\S+ HTTP/[0-9.]+\" \\d{3}\\b.*");

  private Uvicorn() {}

  static @Nullable LogHeader parse(String line) {
    String level;
    int at;
    if (line.startsWith("INFO:")) {
      level = "INFO";
      at = 5;
    } else if (line.startsWith("WARNING:")) {
      level = "WARNING";
      at = 8;
    } else if (line.startsWith("ERROR:")) {
      level = "ERROR";
      at = 6;
    } else {
      return null;
    }
    if (at < line.length() && line.charAt(at) != ' ') {
      return null;
    }
    return new LogHeader(level, null, null, line.substring(at).strip(), LogHeader.Origin.UVICORN);
  }

  static boolean isAccess(String message) {
    return message.indexOf(" HTTP/") > 0 && ACCESS.matcher(message).matches();
  }
}
