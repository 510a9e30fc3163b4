package dev.tokentrace.report;

import static com.tngtech.archunit.base.DescribedPredicate.describe;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.tokentrace.store.query.MarkdownTable;
import org.junit.jupiter.api.Test;

/**
 * The report's layers, checked on its compiled classes: the model depends on nothing else of
 * tokentrace but the store's JDK-only shared rows ({@code store.rows}, which {@code correlate}
 * writes); the analysis reads the model only; each renderer reads the model only and never another
 * renderer; only the {@code report} package wires them together.
 */
final class ReportArchitectureTest {
  private static final String MODEL = "dev.tokentrace.report.model..";
  private static final String JDK = "java..";
  private static final String NULLNESS = "org.jspecify..";

  /** The store's rows that correlate writes and the report shows: one type for both. */
  private static final String SHARED_ROWS = "dev.tokentrace.store.rows..";

  private static final JavaClasses REPORT =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("dev.tokentrace.report");

  @Test
  void layersAreOnlyReachedFromTheLayersAbove() {
    layeredArchitecture()
        .consideringOnlyDependenciesInLayers()
        .layer("Service")
        .definedBy("dev.tokentrace.report")
        .layer("Load")
        .definedBy("dev.tokentrace.report.load..")
        .layer("Analysis")
        .definedBy("dev.tokentrace.report.analysis..")
        .layer("Render")
        .definedBy("dev.tokentrace.report.render..")
        .layer("Model")
        .definedBy(MODEL)
        .whereLayer("Service")
        .mayNotBeAccessedByAnyLayer()
        .whereLayer("Load")
        .mayOnlyBeAccessedByLayers("Service")
        .whereLayer("Analysis")
        .mayOnlyBeAccessedByLayers("Service")
        .whereLayer("Render")
        .mayOnlyBeAccessedByLayers("Service")
        .check(REPORT);
  }

  @Test
  void theModelDependsOnTheJdkOnly() {
    classes()
        .that()
        .resideInAPackage(MODEL)
        .should()
        .onlyDependOnClassesThat()
        // Jdbi's constructor annotation picks the canonical constructor of rows with two
        .resideInAnyPackage(MODEL, SHARED_ROWS, JDK, NULLNESS, "org.jdbi.v3.core.mapper.reflect..")
        .check(REPORT);
  }

  @Test
  void theAnalysisReadsTheModelAndNeverARenderer() {
    classes()
        .that()
        .resideInAPackage("dev.tokentrace.report.analysis..")
        .should()
        .onlyDependOnClassesThat()
        // Jackson reads the runs' parameters (a JSON object) for the appendix
        .resideInAnyPackage(
            "dev.tokentrace.report.analysis..",
            MODEL,
            SHARED_ROWS,
            JDK,
            NULLNESS,
            "com.fasterxml.jackson..")
        .check(REPORT);
    noClasses()
        .that()
        .resideInAnyPackage("dev.tokentrace.report.analysis..", "dev.tokentrace.report.load..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.tokentrace.report.render..")
        .check(REPORT);
  }

  @Test
  void theMarkdownRendererReadsTheModelOnly() {
    classes()
        .that()
        .resideInAPackage("dev.tokentrace.report.render.markdown..")
        .should()
        .onlyDependOnClassesThat(
            resideInAnyPackage(
                    "dev.tokentrace.report.render.markdown..", MODEL, SHARED_ROWS, JDK, NULLNESS)
                .or(
                    describe(
                        "the pipe table shared with `tokentrace sql`",
                        (JavaClass type) -> type.isEquivalentTo(MarkdownTable.class))))
        .check(REPORT);
  }

  @Test
  void theHtmlRendererReadsTheModelOnly() {
    classes()
        .that()
        .resideInAPackage("dev.tokentrace.report.render.html..")
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage(
            "dev.tokentrace.report.render.html..", MODEL, SHARED_ROWS, JDK, NULLNESS)
        .check(REPORT);
  }

  @Test
  void theJsonRendererReadsTheModelAndJackson() {
    classes()
        .that()
        .resideInAPackage("dev.tokentrace.report.render.json..")
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage(
            "dev.tokentrace.report.render.json..",
            MODEL,
            SHARED_ROWS,
            JDK,
            NULLNESS,
            "com.fasterxml.jackson..")
        .check(REPORT);
  }

  @Test
  void theSharedPipeTableDependsOnTheJdkOnly() {
    classes()
        .should()
        .onlyDependOnClassesThat(
            resideInAnyPackage(JDK, NULLNESS)
                .or(
                    describe(
                        "itself", (JavaClass type) -> type.isEquivalentTo(MarkdownTable.class))))
        .check(new ClassFileImporter().importClasses(MarkdownTable.class));
  }

  @Test
  void theSharedRowsDependOnTheJdkOnly() {
    classes()
        .that()
        .resideInAPackage(SHARED_ROWS)
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage(SHARED_ROWS, JDK, NULLNESS)
        .check(new ClassFileImporter().importPackages("dev.tokentrace.store.rows"));
  }
}
