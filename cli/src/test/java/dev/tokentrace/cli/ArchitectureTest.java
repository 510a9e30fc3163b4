package dev.tokentrace.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.io.File;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.FileReader;
import java.io.FileWriter;
import java.io.RandomAccessFile;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Package rules over the main classes of every module (the cli module's tests see them all), on top
 * of the module rules the POMs enforce (docs/design.md#modules). A failure names the class and the
 * dependency that breaks the rule.
 */
final class ArchitectureTest {
  private static final String PARSERS = "dev.tokentrace.parse..";
  private static final String EVENTS = "dev.tokentrace.event..";
  private static final String TABLES = "dev.tokentrace.table..";

  private static JavaClasses classes;

  @BeforeAll
  static void importMainClasses() {
    classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            // sibling modules arrive as target/classes or as jars; their test-jars are tests
            .withImportOption(location -> !location.contains("-tests.jar"))
            .importPackages("dev.tokentrace");
  }

  private static void check(ArchRule rule) {
    rule.check(classes);
  }

  @Test
  void parsersArePure() {
    check(
        noClasses()
            .that()
            .resideInAnyPackage(PARSERS, EVENTS, TABLES)
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(
                "java.nio.file..",
                "java.net..",
                "java.sql..",
                "org.apache.kafka..",
                "org.duckdb..",
                "org.jdbi..",
                "org.apache.commons.csv..",
                "picocli..")
            .orShould()
            .dependOnClassesThat()
            .areAssignableTo(File.class)
            .orShould()
            .dependOnClassesThat()
            .areAssignableTo(FileInputStream.class)
            .orShould()
            .dependOnClassesThat()
            .areAssignableTo(FileOutputStream.class)
            .orShould()
            .dependOnClassesThat()
            .areAssignableTo(FileReader.class)
            .orShould()
            .dependOnClassesThat()
            .areAssignableTo(FileWriter.class)
            .orShould()
            .dependOnClassesThat()
            .areAssignableTo(RandomAccessFile.class)
            .because(
                "a parser gets a line and gives events: no files, network, Kafka, database or"
                    + " CLI (docs/design.md#modules)"));
  }

  @Test
  void theEventModelKnowsNoKafka() {
    check(
        noClasses()
            .that()
            .resideInAPackage(EVENTS)
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("org.apache.kafka..", "dev.tokentrace.ingest..")
            .because("the Kafka record key belongs to the producer (ingest.kafka.EventRecords)"));
  }

  @Test
  void ingestAndCorrelateNeverImportEachOther() {
    check(
        noClasses()
            .that()
            .resideInAPackage("dev.tokentrace.ingest..")
            .should()
            .dependOnClassesThat()
            .resideInAPackage("dev.tokentrace.correlate..")
            .because("ingest and correlate meet at the store (docs/design.md#modules)"));
    check(
        noClasses()
            .that()
            .resideInAPackage("dev.tokentrace.correlate..")
            .should()
            .dependOnClassesThat()
            .resideInAPackage("dev.tokentrace.ingest..")
            .because("ingest and correlate meet at the store (docs/design.md#modules)"));
  }

  /**
   * The classes that run a pipeline step: a command calls the use case of app that runs them
   * (docs/design.md#application-layer). Their settings, summaries and progress records may be
   * named.
   */
  private static final List<String> PIPELINE_RUNNERS =
      List.of(
          "dev.tokentrace.correlate.attribution.Attributor",
          "dev.tokentrace.correlate.attribution.AttributionCsvWriter",
          "dev.tokentrace.correlate.live.LakeAttribution",
          "dev.tokentrace.correlate.live.LakeEvents",
          "dev.tokentrace.correlate.client.ClientTimingLoader",
          "dev.tokentrace.ingest.Ingest",
          "dev.tokentrace.ingest.follow.Follower",
          "dev.tokentrace.ingest.kafka.KafkaWait",
          "dev.tokentrace.ingest.kafka.EventProducer",
          "dev.tokentrace.ingest.kafka.TransactionalEventProducer",
          "dev.tokentrace.ingest.sink.KafkaToDuckDb",
          "dev.tokentrace.ingest.sink.KafkaToLake",
          "dev.tokentrace.ingest.sink.LiveSink",
          "dev.tokentrace.ingest.sink.LoadedFiles",
          "dev.tokentrace.ingest.sink.DirectLoad",
          "dev.tokentrace.report.ReportService");

  /**
   * The commands of cli that may still run pipeline classes themselves, each for a reason:
   *
   * <ul>
   *   <li>{@code Demo*}, {@code Simulate*}, {@code Pd*}, {@code Live*}: the demo and the simulator
   *       wire their own scenario runs (an embedded broker per scenario, a live simulated server);
   *       they are not a use case of the analysis pipeline and change with the simulator;
   *   <li>{@code ParseCommand}: runs the parsers alone, to standard output, and stores nothing;
   *   <li>{@code BrokerCommand}: is the embedded broker, nothing else;
   *   <li>{@code ScrapeCommand}: one bounded scraper loop writing a file, no store.
   * </ul>
   */
  private static final String EXCEPTIONS =
      "dev\\.tokentrace\\.cli\\.(Demo|Simulate|Pd|Live|ParseCommand|BrokerCommand|ScrapeCommand).*";

  @Test
  void theCommandsRunThePipelinesThroughTheApplicationLayer() {
    check(
        noClasses()
            .that()
            .resideInAPackage("dev.tokentrace.cli..")
            .and()
            .haveNameNotMatching(EXCEPTIONS)
            .should()
            .dependOnClassesThat()
            .haveNameMatching(
                "(" + String.join("|", PIPELINE_RUNNERS).replace(".", "\\.") + ")(\\$.*)?")
            .orShould()
            .dependOnClassesThat()
            .resideInAnyPackage(
                "dev.tokentrace.report.load..",
                "dev.tokentrace.report.analysis..",
                "dev.tokentrace.report.render..")
            .because(
                "cli -> app -> pipeline modules: a command maps its options to a request and calls"
                    + " a use case of app (ingest, ship, sink, clients, correlate, report,"
                    + " analyze), which runs the pipeline (docs/design.md#application-layer);"
                    + " settings, summary and progress records may be named"));
  }

  @Test
  void nothingDependsOnTheCommandLineOrSpark() {
    check(
        noClasses()
            .that()
            .resideOutsideOfPackage("dev.tokentrace.cli..")
            .should()
            .dependOnClassesThat()
            .resideInAPackage("dev.tokentrace.cli..")
            .because("the command line is the top of the build (docs/design.md#modules)"));
    check(
        noClasses()
            .that()
            .resideOutsideOfPackage("dev.tokentrace.spark..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("dev.tokentrace.spark..", "org.apache.spark..")
            .because(
                "the spark module is a leaf and nothing else pulls Spark in"
                    + " (docs/scale.md#module)"));
  }

  @Test
  void theApplicationLayerSitsBetweenTheCommandsAndThePipelines() {
    check(
        noClasses()
            .that()
            .resideInAPackage("dev.tokentrace.app..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("dev.tokentrace.cli..", "picocli..")
            .because(
                "use cases take typed requests, never command lines"
                    + " (docs/design.md#application-layer)"));
    check(
        noClasses()
            .that()
            .resideInAnyPackage(
                "dev.tokentrace.parse..",
                "dev.tokentrace.event..",
                "dev.tokentrace.table..",
                "dev.tokentrace.measure..",
                "dev.tokentrace.clients..",
                "dev.tokentrace.store..",
                "dev.tokentrace.ingest..",
                "dev.tokentrace.correlate..",
                "dev.tokentrace.report..",
                "dev.tokentrace.exporter..",
                "dev.tokentrace.simulator..",
                "dev.tokentrace.loadgen..")
            .should()
            .dependOnClassesThat()
            .resideInAPackage("dev.tokentrace.app..")
            .because(
                "the pipeline modules are below the application layer"
                    + " (docs/design.md#application-layer)"));
  }

  @Test
  void theStoreImportsNoneOfItsUsers() {
    check(
        noClasses()
            .that()
            .resideInAPackage("dev.tokentrace.store..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(
                "dev.tokentrace.ingest..",
                "dev.tokentrace.correlate..",
                "dev.tokentrace.report..",
                "org.apache.kafka..")
            .because("the store is below ingest, correlate and report (docs/design.md#modules)"));
  }

  @Test
  void theClientReadersArePure() {
    check(
        noClasses()
            .that()
            .resideInAPackage("dev.tokentrace.clients..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(
                "dev.tokentrace.store..",
                "dev.tokentrace.ingest..",
                "dev.tokentrace.correlate..",
                "dev.tokentrace.report..",
                "dev.tokentrace.cli..",
                "org.apache.kafka..",
                "org.duckdb..",
                "java.sql..")
            .because(
                "ingest streams client rows and correlate loads them with the same readers, so"
                    + " the readers sit below both (docs/design.md#modules)"));
  }

  @Test
  void theExporterOnlyReadsTheStore() {
    check(
        noClasses()
            .that()
            .resideInAPackage("dev.tokentrace.exporter..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(
                "dev.tokentrace.ingest..",
                "dev.tokentrace.correlate..",
                "dev.tokentrace.report..",
                "dev.tokentrace.cli..",
                "org.apache.kafka..")
            .because("serve reads the store and nothing else (docs/design.md#modules)"));
  }

  @Test
  void measureDependsOnNoOtherModule() {
    check(
        noClasses()
            .that()
            .resideInAPackage("dev.tokentrace.measure..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(
                "dev.tokentrace.parse..",
                "dev.tokentrace.event..",
                "dev.tokentrace.store..",
                "dev.tokentrace.ingest..",
                "dev.tokentrace.correlate..",
                "dev.tokentrace.report..",
                "dev.tokentrace.simulator..",
                "dev.tokentrace.loadgen..",
                "dev.tokentrace.cli..")
            .because("loadgen, the simulator and correlate all use it (docs/design.md#modules)"));
  }

  @Test
  void noPackageIsNamedByVagueness() {
    check(
        noClasses()
            .should()
            .resideInAnyPackage(
                "..util..", "..utils..", "..common..", "..helper..", "..helpers..", "..misc..")
            .because("a package is named by what it holds, not by being shared"));
  }
}
