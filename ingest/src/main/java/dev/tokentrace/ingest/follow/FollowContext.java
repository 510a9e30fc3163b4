package dev.tokentrace.ingest.follow;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.event.Engine;
import dev.tokentrace.ingest.tail.TailOutput;
import dev.tokentrace.parse.LineParser;
import dev.tokentrace.parse.ParseSettings;
import java.util.function.BiFunction;

/**
 * What every {@link FollowedFile} of a {@link Follower} shares: the settings, the parser factory,
 * the sink that takes released output (the open Kafka transaction) and how client files become
 * rows.
 */
record FollowContext(
    FollowSettings settings,
    BiFunction<Engine, ParseSettings, LineParser> parsers,
    TailOutput downstream,
    ClientFollowSettings clients) {
  FollowContext {
    requireNonNull(clients, "clients is null");
    requireNonNull(settings, "settings is null");
    requireNonNull(parsers, "parsers is null");
    requireNonNull(downstream, "downstream is null");
  }

  long detectTimeoutNanos() {
    return settings.timing().detect().toNanos();
  }
}
