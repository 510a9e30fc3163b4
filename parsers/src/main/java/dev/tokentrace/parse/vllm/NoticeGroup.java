package dev.tokentrace.parse.vllm;

import dev.tokentrace.parse.ParseOutput;
import org.jspecify.annotations.Nullable;

/**
 * The one notice of a source still being folded (a WARNING/ERROR record and its continuation or
 * traceback lines). It is emitted when the next record starts, when another group starts, or at the
 * end of the source. Not thread-safe.
 */
final class NoticeGroup {
  private final String instance;
  private @Nullable PendingNotice pending;

  NoticeGroup(String instance) {
    this.instance = instance;
  }

  @Nullable PendingNotice open() {
    return pending;
  }

  /** The open notice when it is an error (raw traceback lines belong to errors only). */
  @Nullable PendingNotice openError() {
    PendingNotice open = pending;
    return open != null && open.isError() ? open : null;
  }

  /** Emits the open notice, if any, and opens {@code notice}. */
  void start(PendingNotice notice, ParseOutput sink) {
    flush(sink);
    pending = notice;
  }

  void flush(ParseOutput sink) {
    PendingNotice open = pending;
    if (open != null) {
      pending = null;
      sink.event(open.toNotice(instance));
    }
  }
}
