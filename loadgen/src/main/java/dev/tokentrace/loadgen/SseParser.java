package dev.tokentrace.loadgen;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Splits a {@code text/event-stream} into events as the bytes arrive, per the WHATWG
 * server-sent-events rules: lines end in LF, CRLF or CR (also across reads); {@code data:} lines of
 * one event are joined with LF; an empty line dispatches the event; comment lines (starting with
 * {@code :}, proxies' heartbeats) and other fields ({@code event}, {@code id}, {@code retry}) carry
 * no data; an event without data lines (a blank heartbeat) is not dispatched. Pure; not
 * thread-safe.
 */
final class SseParser {
  /** Receives each event's data, with the time the bytes that completed it were read. */
  interface Listener {
    void data(String data, long readNanos);
  }

  private final Listener listener;
  private final ByteArrayOutputStream line = new ByteArrayOutputStream(256);
  private final StringBuilder data = new StringBuilder();
  private boolean hasData;
  private boolean afterCr;

  SseParser(Listener listener) {
    this.listener = listener;
  }

  /** Feeds bytes read at {@code readNanos}. */
  void feed(byte[] bytes, int offset, int length, long readNanos) {
    for (int i = offset; i < offset + length; i++) {
      byte b = bytes[i];
      if (b == '\n' && afterCr) {
        afterCr = false; // the LF of a CRLF: the line ended at the CR
        continue;
      }
      afterCr = b == '\r';
      if (b == '\n' || b == '\r') {
        endLine(readNanos);
      } else {
        line.write(b);
      }
    }
  }

  /** The stream ended: an unterminated last event is dropped, as the SSE rules say. */
  void end() {
    line.reset();
    data.setLength(0);
    hasData = false;
  }

  private void endLine(long readNanos) {
    if (line.size() == 0) {
      dispatch(readNanos);
      return;
    }
    String text = line.toString(StandardCharsets.UTF_8);
    line.reset();
    if (text.startsWith(":")) {
      return; // a comment: heartbeats such as ": ping"
    }
    int colon = text.indexOf(':');
    String field = colon < 0 ? text : text.substring(0, colon);
    if (!field.equals("data")) {
      return; // event, id, retry and unknown fields carry no data
    }
    String value = colon < 0 ? "" : text.substring(colon + 1);
    if (value.startsWith(" ")) {
      value = value.substring(1);
    }
    if (hasData) {
      data.append('\n');
    }
    data.append(value);
    hasData = true;
  }

  private void dispatch(long readNanos) {
    if (!hasData) {
      return;
    }
    String event = data.toString();
    data.setLength(0);
    hasData = false;
    listener.data(event, readNanos);
  }
}
