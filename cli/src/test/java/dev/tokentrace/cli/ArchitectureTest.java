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

  @Test
  void theCommandsAttributeAndReportThroughTheApplicationLayer() {
    check(
        noClasses()
            .that()
            .resideInAPackage("dev.tokentrace.cli..")
            .should()
            .dependOnClassesThat()
            .haveFullyQualifiedName("dev.tokentrace.correlate.attribution.Attributor")
            .orShould()
            .dependOnClassesThat()
            .haveFullyQualifiedName("dev.tokentrace.correlate.attribution.AttributionCsvWriter")
            .orShould()
            .dependOnClassesThat()
            .haveFullyQualifiedName("dev.tokentrace.correlate.live.LakeAttribution")
            .orShould()
            .dependOnClassesThat()
            .haveFullyQualifiedName("dev.tokentrace.correlate.live.LakeEvents")
            .orShould()
            .dependOnClassesThat()
            .haveFullyQualifiedName("dev.tokentrace.correlate.client.ClientTimingLoader")
            .orShould()
            .dependOnClassesThat()
            .haveFullyQualifiedName("dev.tokentrace.ingest.sink.LoadedFiles")
            .orShould()
            .dependOnClassesThat()
            .haveFullyQualifiedName("dev.tokentrace.report.ReportService")
            .orShould()
            .dependOnClassesThat()
            .resideInAnyPackage(
                "dev.tokentrace.report.load..",
                "dev.tokentrace.report.analysis..",
                "dev.tokentrace.report.render..")
            .because(
                "cli -> app -> pipeline modules: a command maps its options to a request and calls"
                    + " a use case of app, which loads client files, ingests a batch, runs the"
                    + " attribution on its engine and the report"
                    + " (docs/design.md#application-layer); settings and result records may be"
                    + " named"));
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
