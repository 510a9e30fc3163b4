package dev.tokentrace.parse.sglang;

import dev.tokentrace.parse.PythonRepr;

/**
 * Reads a Python-repr {@code meta_info} dict (docs/formats/sglang.md#meta-info-keys) into a {@link
 * MetaInfo}: {@code {'id': 'r1', 'finish_reason': {'type': 'stop', 'matched': 2}, 'prompt_tokens':
 * 12, ...}}. Unknown keys and values are skipped unread; {@code None} counts as absent. Stateless.
 */
final class MetaInfoReader {
  private MetaInfoReader() {}

  /** Reads the dict at the reader's position; check {@link PythonRepr#failed()} afterwards. */
  static MetaInfo read(PythonRepr reader) {
    MetaInfo meta = new MetaInfo();
    if (!reader.openDict()) {
      return meta;
    }
    for (String name = reader.nextKey(); name != null; name = reader.nextKey()) {
      MetaInfo.Key key = MetaInfo.Key.of(name);
      if (key == MetaInfo.Key.FINISH_REASON) {
        finishReason(reader, meta);
      } else if (key != null) {
        value(reader, key, meta);
      }
    }
    return meta;
  }

  private static void value(PythonRepr reader, MetaInfo.Key key, MetaInfo meta) {
    PythonRepr.Scalar scalar = reader.readScalar();
    String text = reader.string();
    if (key == MetaInfo.Key.ID) {
      if (scalar == PythonRepr.Scalar.STRING && text != null) {
        meta.id(text);
      }
    } else if (scalar == PythonRepr.Scalar.NUMBER) {
      meta.number(key, reader.number());
    } else if (scalar != PythonRepr.Scalar.NONE) {
      meta.bad(key);
    }
  }

  /** v0.3+ {@code {'type': 'abort', 'message': '...'}}, v0.2 a string, {@code None} while open. */
  private static void finishReason(PythonRepr reader, MetaInfo meta) {
    if (!reader.peek('{')) {
      if (reader.readScalar() == PythonRepr.Scalar.STRING && reader.string() != null) {
        meta.finishReason(reader.string());
      }
      return;
    }
    reader.openDict();
    for (String name = reader.nextKey(); name != null; name = reader.nextKey()) {
      if (!name.equals("type") && !name.equals("message")) {
        continue;
      }
      if (reader.readScalar() == PythonRepr.Scalar.STRING && reader.string() != null) {
        if (name.equals("type")) {
          meta.finishReason(reader.string());
        } else {
          meta.abortMessage(reader.string());
        }
      }
    }
  }
}
