package dev.tokentrace.cli;

import dev.tokentrace.ingest.kafka.EmbeddedBroker;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tokentrace broker}: a local single-node Kafka broker for trying split deployments. */
@Command(
    name = "broker",
    mixinStandardHelpOptions = true,
    showDefaultValues = true,
    sortOptions = false,
    description = {
      "Run a single-node Kafka broker (KRaft) on loopback until interrupted (Ctrl-C or SIGTERM),"
          + " to try 'ship' and 'sink' as separate processes on one machine. Without --data-dir"
          + " its data lives in a temporary directory that is deleted on exit; with it, the"
          + " data (topics, shippers' checkpoints and transactions) survives a restart, so"
          + " shippers and sinks resume exactly. Not for production: one node, no replication,"
          + " no authentication.",
      ""
    })
final class BrokerCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--port",
      paramLabel = "PORT",
      description =
          "port of the broker on 127.0.0.1 (0: any free port); a fixed port lets clients"
              + " reconnect to a restarted broker",
      defaultValue = "0")
  int port;

  @Option(
      names = "--data-dir",
      paramLabel = "DIR",
      description =
          "keep the broker's data in DIR across restarts (created and formatted on first use)")
  @Nullable Path dataDir;

  @Override
  public Integer call() throws InterruptedException {
    if (port < 0 || port > 65_535) {
      throw new UsageException("--port must be 0..65535: " + port);
    }
    PrintWriter out = spec.commandLine().getOut();
    CountDownLatch stopped = new CountDownLatch(1);
    try (EmbeddedBroker broker = EmbeddedBroker.start(port, dataDir)) {
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  () -> {
                    broker.close();
                    stopped.countDown();
                  },
                  "tokentrace-broker-stop"));
      out.println("kafka broker ready on " + broker.bootstrapServers());
      out.println(
          "  data: " + (dataDir == null ? "temporary, deleted on exit" : dataDir + " (kept)"));
      out.println(
          "  ./tokentrace ship --follow --bootstrap-servers "
              + broker.bootstrapServers()
              + " --instance gpu0 /var/log/vllm/server.log");
      out.println(
          "  ./tokentrace sink --follow --bootstrap-servers "
              + broker.bootstrapServers()
              + " --db live.duckdb");
      out.println("Ctrl-C stops it.");
      out.flush();
      stopped.await();
      return ExitCodes.OK;
    }
  }
}
