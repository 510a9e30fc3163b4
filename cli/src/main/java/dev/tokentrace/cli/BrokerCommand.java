package dev.tokentrace.cli;

import dev.tokentrace.ingest.kafka.EmbeddedBroker;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code tokentrace broker}: a local single-node Kafka broker for trying split deployments. */
@Command(
    name = "broker",
    mixinStandardHelpOptions = true,
    description = {
      "Run a single-node Kafka broker (KRaft) on loopback until interrupted (Ctrl-C or SIGTERM),"
          + " to try 'ship' and 'sink' as separate processes on one machine. Its data lives in a"
          + " temporary directory that is deleted on exit. Not for production: one node, no"
          + " replication, no authentication."
    })
final class BrokerCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Override
  public Integer call() throws InterruptedException {
    PrintWriter out = spec.commandLine().getOut();
    CountDownLatch stopped = new CountDownLatch(1);
    try (EmbeddedBroker broker = EmbeddedBroker.start()) {
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
          "  tokentrace ship --bootstrap-servers " + broker.bootstrapServers() + " FILE...");
      out.println("  tokentrace sink --bootstrap-servers " + broker.bootstrapServers() + " --db F");
      out.println("Ctrl-C stops it.");
      out.flush();
      stopped.await();
      return ExitCodes.OK;
    }
  }
}
