package dev.tokentrace.parse.trtllm;

import dev.tokentrace.event.ServerNotice.Kind;
import java.util.Locale;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Which logger messages are worth a {@code server_notice}, and of which kind. Every error and
 * warning is; an info message only when it says something about slowness or capacity: a request
 * paused or evicted (the C++ MAX_UTILIZATION scheduler, {@code llmRequest.h} PR #10664), a
 * cancelled request, an out-of-memory, the version, or the KV-cache capacity and memory facts
 * logged at start ({@code [MemUsageChange]}, {@code Allocated ... for max tokens in paged KV
 * cache}). Debug and verbose messages never are.
 */
final class NoticeRules {
  private static final Pattern OOM_WORD = Pattern.compile("(?<![a-z])oom(?![a-z])");

  private NoticeRules() {}

  static @Nullable Kind classify(LogHeader header) {
    boolean error = header.isError();
    boolean warning = header.isWarning();
    if (!error && !warning && !header.isInfo()) {
      return null;
    }
    String message = header.message();
    String lower = message.toLowerCase(Locale.ROOT);
    if (isOom(lower)) {
      return Kind.OOM;
    }
    if (error) {
      return Kind.ERROR;
    }
    if (isPreemption(lower)) {
      return Kind.PREEMPTION;
    }
    if (warning || isCancel(lower)) {
      return Kind.WARNING;
    }
    if (isStartup(lower)) {
      return Kind.STARTUP;
    }
    return isConfig(message, lower) ? Kind.CONFIG : null;
  }

  static boolean isOom(String lower) {
    return lower.contains("out of memory")
        || lower.contains("outofmemory")
        || lower.contains("cudaerrormemoryallocation")
        || (lower.contains("oom") && OOM_WORD.matcher(lower).find());
  }

  private static boolean isPreemption(String lower) {
    if (!lower.contains("request")) {
      return false;
    }
    return lower.contains("paus")
        || lower.contains("preempt")
        || (lower.contains("evict") && !lower.contains("no_evict") && !lower.contains("no evict"));
  }

  private static boolean isCancel(String lower) {
    return lower.contains("request")
        && (lower.contains("cancelled")
            || lower.contains("canceled")
            || lower.contains("cancelling"));
  }

  private static boolean isStartup(String lower) {
    return lower.startsWith("tensorrt-llm version")
        || lower.startsWith("engine version")
        || lower.startsWith("application startup complete")
        || lower.startsWith("started server process");
  }

  private static boolean isConfig(String message, String lower) {
    return message.startsWith("[MemUsageChange]")
        || lower.contains("paged kv cache")
        || lower.contains("max kv cache blocks")
        || lower.contains("tokens per block")
        || lower.startsWith("mpi size:");
  }
}
