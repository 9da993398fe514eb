package dev.loadprof.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layering of docs/ARCHITECTURE.md, enforced on the main classes of transforms and pipelines:
 * the floors (a package may use only its own floor and those below it), no package cycles, Beam
 * and Flink only where the pipelines are built, one class per simple name, and no main source
 * file over 500 lines.
 */
class ArchitectureTest {
  private static final String ROOT = "dev.loadprof";

  /** The floors, lowest first; each lists its packages (with their subpackages). */
  static final Map<String, String[]> FLOORS = floors();

  private static final Pattern LOADPROF_JAR =
      Pattern.compile(".*/loadprof-(schemas|transforms|stores|pipelines)[^/]*\\.jar.*");

  private static JavaClasses main;

  private static Map<String, String[]> floors() {
    Map<String, String[]> f = new java.util.LinkedHashMap<>();
    f.put("data model", new String[] {"schemas", "codec", "model", "progress"});
    f.put("readers", new String[] {"parse", "perfdata"});
    f.put("analysis cores", new String[] {"block", "critical", "load", "profile", "wall"});
    f.put("outputs", new String[] {"report", "compare"});
    f.put("archive", new String[] {"archive"});
    f.put("beam transforms", new String[] {"beam", "archive.beam"});
    f.put("entry points", new String[] {"pipelines", "cli", "record", "stores"});
    return f;
  }

  @BeforeAll
  static void importMainClasses() {
    // loadprof's own main classes: the modules' target/classes, or their jars when Maven's
    // verify has packaged them; never test classes, nor other jars.
    ImportOption loadprofMain = location -> location.contains("/target/classes/")
        || (location.matches(LOADPROF_JAR)
            && !location.contains("-tests.jar"));
    main = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .withImportOption(loadprofMain)
        .importPackages(ROOT);
    // A rule over no classes passes: an import that found nothing (a moved module, a changed
    // build layout) must fail here, not leave every test below green.
    List<String> empty = new ArrayList<>();
    for (String[] floor : FLOORS.values()) {
      for (String p : floor) {
        if (main.stream().noneMatch(c -> c.getPackageName().equals(ROOT + "." + p)
            || c.getPackageName().startsWith(ROOT + "." + p + "."))) {
          empty.add(ROOT + "." + p);
        }
      }
    }
    if (!empty.isEmpty()) {
      throw new IllegalStateException("no main classes found in " + empty + " (imported "
          + main.size() + " classes): build the modules (mvn package) before this test");
    }
  }

  private static String[] packagesOf(String... floors) {
    return Stream.of(floors).flatMap(f -> Stream.of(FLOORS.get(f)))
        .map(p -> ROOT + "." + p + "..").toArray(String[]::new);
  }

  @Test
  void eachFloorUsesOnlyItselfAndTheFloorsBelow() {
    List<String> names = new ArrayList<>(FLOORS.keySet());
    var layers = layeredArchitecture().consideringOnlyDependenciesInLayers();
    for (String name : names) {
      layers = layers.layer(name).definedBy(packagesOf(name));
    }
    for (int i = 0; i < names.size() - 1; i++) {
      String[] above = names.subList(i + 1, names.size()).toArray(String[]::new);
      layers = layers.whereLayer(names.get(i)).mayOnlyBeAccessedByLayers(above);
    }
    // archive.beam is a subpackage of archive but a floor above it: the Beam floor's own rule.
    layers.ignoreDependency(JavaClass.Predicates.resideInAPackage(ROOT + ".archive.beam.."),
            JavaClass.Predicates.resideInAPackage(ROOT + ".archive.."))
        .check(main);
  }

  @Test
  void everyPackageIsOnAFloor() {
    classes().that().resideInAPackage(ROOT + "..")
        .should().resideInAnyPackage(packagesOf(FLOORS.keySet().toArray(String[]::new)))
        .because("docs/ARCHITECTURE.md places every package on a floor")
        .check(main);
  }

  @Test
  void noPackageCycles() {
    slices().matching(ROOT + ".(**)").should().beFreeOfCycles().check(main);
  }

  @Test
  void beamAndFlinkOnlyWherePipelinesAreBuilt() {
    noClasses().that().resideOutsideOfPackages(packagesOf("beam transforms", "entry points"))
        .should().dependOnClassesThat().resideInAnyPackage("org.apache.beam..", "org.apache.flink..")
        .because("the cores are plain Java, testable without a runner")
        .check(main);
  }

  @Test
  void eachClassNameIsUsedOnce() {
    Map<String, List<String>> byName = main.stream()
        .filter(c -> c.isTopLevelClass() && c.getPackageName().startsWith(ROOT))
        .collect(Collectors.groupingBy(JavaClass::getSimpleName, TreeMap::new,
            Collectors.mapping(JavaClass::getName, Collectors.toList())));
    byName.values().removeIf(names -> names.size() < 2);
    assertEquals(Map.of(), byName, "classes that share a simple name");
  }

  @Test
  void noMainSourceFileIsOver500Lines() throws IOException {
    Map<String, Long> tooLong = new TreeMap<>();
    // schemas holds Avro and proto definitions only; the others must have Java to check.
    for (String module : List.of("transforms", "stores", "pipelines")) {
      Path src = Path.of("..", module, "src", "main", "java");
      assertTrue(Files.isDirectory(src), "no main sources at " + src.toAbsolutePath());
      try (Stream<Path> files = Files.walk(src)) {
        List<Path> sources = files.filter(p -> p.toString().endsWith(".java")).toList();
        assertFalse(sources.isEmpty(), "no .java file under " + src.toAbsolutePath());
        for (Path f : sources) {
          long lines;
          try (Stream<String> l = Files.lines(f)) {
            lines = l.count();
          }
          if (lines > 500) {
            tooLong.put(src.relativize(f).toString(), lines);
          }
        }
      }
    }
    assertEquals(Map.of(), tooLong, "main source files over 500 lines: split them by job");
  }
}
