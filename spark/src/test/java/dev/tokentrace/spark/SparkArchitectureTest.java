package dev.tokentrace.spark;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The spark module is a leaf (docs/scale.md#module): of every tokentrace module on this module's
 * class path (all it depends on), no main class uses the spark module or Spark. The build enforces
 * the same from the other side: the parent's enforcer execution {@code nothing-depends-on-spark}
 * fails any other module that declares either as a dependency.
 */
class SparkArchitectureTest {
  @Test
  void nothingOutsideTheSparkModuleUsesSpark() {
    JavaClasses classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(location -> !location.contains("-tests.jar"))
            .importPackages("dev.tokentrace");
    noClasses()
        .that()
        .resideOutsideOfPackage("dev.tokentrace.spark..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("dev.tokentrace.spark..", "org.apache.spark..")
        .because("nothing depends on the spark module, and only it uses Spark (docs/scale.md)")
        .check(classes);
  }
}
