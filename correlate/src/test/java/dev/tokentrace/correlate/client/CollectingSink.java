package dev.tokentrace.correlate.client;

import dev.tokentrace.event.SourcePosition;
import java.util.ArrayList;
import java.util.List;

/** Keeps what a reader produced, for assertions. */
final class CollectingSink implements ClientReaderOutput {
  final List<ClientTiming> rows = new ArrayList<>();
  final List<ClientRejection> rejections = new ArrayList<>();
  final List<String> warnings = new ArrayList<>();

  @Override
  public void row(ClientTiming timing) {
    rows.add(timing);
  }

  @Override
  public void rejected(ClientRejection rejection) {
    rejections.add(rejection);
  }

  @Override
  public void warning(SourcePosition position, String message) {
    warnings.add(position + ": " + message);
  }

  List<String> messages() {
    return rejections.stream().map(ClientRejection::message).toList();
  }

  List<String> reasons() {
    return rejections.stream().map(ClientRejection::reason).toList();
  }
}
