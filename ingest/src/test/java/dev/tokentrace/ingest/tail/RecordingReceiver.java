package dev.tokentrace.ingest.tail;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.tokentrace.parse.LineSplitter;
import java.util.ArrayList;
import java.util.List;

/** Collects what a {@link LineSplitter} delivers, as readable strings. */
final class RecordingReceiver implements LineSplitter.Receiver {
  final List<String> outcomes = new ArrayList<>();
  final List<byte[]> raws = new ArrayList<>();

  @Override
  public void line(String text, long number, long offset) {
    outcomes.add(number + "@" + offset + ":" + text);
  }

  @Override
  public void invalid(long number, long offset, String reason, byte[] raw) {
    outcomes.add(number + "@" + offset + "!" + reason);
    raws.add(raw);
  }

  static String text(byte[] raw) {
    return new String(raw, UTF_8);
  }
}
