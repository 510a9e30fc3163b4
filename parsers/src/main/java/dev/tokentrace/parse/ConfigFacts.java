package dev.tokentrace.parse;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.ServerConfig;
import dev.tokentrace.event.SourcePosition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Reads the configuration dumps engines print at startup: Python {@code repr} argument lists
 * ({@code model='/m', dtype=torch.bfloat16, speculative_config=SpeculativeConfig(k=3)}, vLLM's
 * engine config, SGLang's {@code ServerArgs(...)}, TensorRT-LLM's limits line) and dicts ({@code
 * {'model': '/m', 'tensor_parallel_size': 2}}, vLLM's {@code non-default args}). Entries are split
 * at top-level commas only, so nested calls, dicts, lists and quoted strings stay one value. A dump
 * cut short (long lines are truncated by some collectors) keeps its complete entries and drops the
 * unfinished last one. docs/formats/vllm.md#startup-configuration-lines. Pure and thread-safe.
 */
public final class ConfigFacts {
  /** One setting: its name and the text of its value, outer quotes removed. */
  public record Fact(String key, String value) {}

  /** Facts and the section (kind of line) they came from. */
  public record Facts(String section, List<Fact> facts) {}

  private ConfigFacts() {}

  /**
   * The {@code name=value} entries of {@code text} from {@code from} up to the bracket that closes
   * the list (or the end). Entries without {@code =} are skipped.
   */
  public static List<Fact> keywordArgs(String text, int from) {
    List<Fact> facts = new ArrayList<>();
    for (String entry : entries(text, from)) {
      int eq = topLevel(entry, '=');
      if (eq <= 0) {
        continue;
      }
      String key = entry.substring(0, eq).trim();
      if (isName(key)) {
        facts.add(new Fact(key, unquote(entry.substring(eq + 1).trim())));
      }
    }
    return facts;
  }

  /**
   * The {@code 'name': value} entries of the dict whose <code>{</code> is at {@code open}; empty
   * when there is none there.
   */
  public static List<Fact> dict(String text, int open) {
    List<Fact> facts = new ArrayList<>();
    if (open < 0 || open >= text.length() || text.charAt(open) != '{') {
      return facts;
    }
    for (String entry : entries(text, open + 1)) {
      int colon = topLevel(entry, ':');
      if (colon <= 0) {
        continue;
      }
      String key = unquote(entry.substring(0, colon).trim());
      if (isName(key)) {
        facts.add(new Fact(key, unquote(entry.substring(colon + 1).trim())));
      }
    }
    return facts;
  }

  /**
   * Sends each fact as a {@code server_config} event of {@code section} (whose constructor redacts
   * secrets).
   */
  public static void emit(
      Engine engine,
      String instance,
      @Nullable Instant ts,
      SourcePosition position,
      String section,
      List<Fact> facts,
      ParseOutput sink) {
    for (Fact fact : facts) {
      sink.event(
          new ServerConfig(engine, instance, ts, position, section, fact.key(), fact.value()));
    }
  }

  /** {@code 'x'} or {@code "x"} without its quotes (escapes left as printed); else as is. */
  public static String unquote(String value) {
    if (value.length() >= 2) {
      char first = value.charAt(0);
      if ((first == '\'' || first == '"') && value.charAt(value.length() - 1) == first) {
        return value.substring(1, value.length() - 1);
      }
    }
    return value;
  }

  /** The entries between top-level commas, up to the closing bracket or the end of the text. */
  private static List<String> entries(String text, int from) {
    List<String> entries = new ArrayList<>();
    int depth = 0;
    int start = from;
    int i = from;
    while (i < text.length()) {
      char c = text.charAt(i);
      if (c == '\'' || c == '"') {
        int end = text.indexOf(c, i + 1);
        while (end > 0 && isEscaped(text, end)) {
          end = text.indexOf(c, end + 1);
        }
        if (end < 0) {
          return entries; // cut inside a string: the unfinished entry is dropped
        }
        i = end + 1;
        continue;
      }
      if (c == '(' || c == '[' || c == '{') {
        depth++;
      } else if (c == ')' || c == ']' || c == '}') {
        if (depth == 0) {
          addEntry(entries, text.substring(start, i));
          return entries;
        }
        depth--;
      } else if (c == ',' && depth == 0) {
        addEntry(entries, text.substring(start, i));
        start = i + 1;
      }
      i++;
    }
    if (depth == 0) {
      addEntry(entries, text.substring(start)); // a bare list ending with the line
    }
    return entries;
  }

  private static void addEntry(List<String> entries, String entry) {
    if (!entry.isBlank()) {
      entries.add(entry.trim());
    }
  }

  private static boolean isEscaped(String text, int at) {
    int backslashes = 0;
    for (int i = at - 1; i >= 0 && text.charAt(i) == '\\'; i--) {
      backslashes++;
    }
    return backslashes % 2 == 1;
  }

  /** The first {@code target} outside quotes and brackets, or -1. */
  private static int topLevel(String entry, char target) {
    int depth = 0;
    for (int i = 0; i < entry.length(); i++) {
      char c = entry.charAt(i);
      if (c == '\'' || c == '"') {
        int end = entry.indexOf(c, i + 1);
        if (end < 0) {
          return -1;
        }
        i = end;
      } else if (c == '(' || c == '[' || c == '{') {
        depth++;
      } else if (c == ')' || c == ']' || c == '}') {
        depth--;
      } else if (c == target && depth == 0) {
        return i;
      }
    }
    return -1;
  }

  private static boolean isName(String key) {
    if (key.isEmpty() || key.length() > ServerConfig.MAX_KEY) {
      return false;
    }
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      if (!(Character.isLetterOrDigit(c) || c == '_' || c == '-' || c == '.')) {
        return false;
      }
    }
    return true;
  }
}
