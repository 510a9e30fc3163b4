package dev.tokentrace.parse.vllm;

import dev.tokentrace.event.SourcePosition;
import java.util.HashSet;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Notes, once per source and field, a field of a stats or iteration line that this parser does not
 * read (a newer or older vLLM release; docs/formats/vllm-wild.md#unknown-fields). The line is still
 * parsed: its known fields become the event, the unknown ones are left out, and the log says so.
 * Not thread-safe: one per parser.
 */
final class UnknownFields {
  private static final Logger log = LoggerFactory.getLogger(UnknownFields.class);

  /** Distinct labels noted per source; beyond this, new ones are no longer remembered or noted. */
  static final int MAX_NOTED = 64;

  private final Set<String> noted = new HashSet<>();

  void note(String kind, String label, SourcePosition position) {
    if (noted.size() < MAX_NOTED && noted.add(kind + "\0" + label)) {
      log.info(
          "{}: vllm: {} field '{}' is not read by this version of tokentrace; its known fields are"
              + " kept (noted once per source)",
          position,
          kind,
          label);
    }
  }
}
