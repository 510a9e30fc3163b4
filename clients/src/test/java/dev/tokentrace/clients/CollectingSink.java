package dev.tokentrace.clients;

import dev.tokentrace.event.SourcePosition;
import java.util.ArrayList;
import java.util.List;

/** Keeps what a reader produced, for assertions. */
public final class CollectingSink implements ClientReaderOutput {
  public final List<ClientTiming> rows = new ArrayList<>();
  public final List<ClientRejection> rejections = new ArrayList<>();
  public final List<String> warnings = new ArrayList<>();

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

  public List<String> messages() {
    return rejections.stream().map(ClientRejection::message).toList();
  }

  public List<String> reasons() {
    return rejections.stream().map(ClientRejection::reason).toList();
  }
}
