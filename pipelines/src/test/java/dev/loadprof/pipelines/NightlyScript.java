package dev.loadprof.pipelines;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs scripts/nightly.sh as cron would, with loadprof launched from this test's classpath
 * (LOADPROF), so the script is tested against the classes under test without a packaged jar.
 */
final class NightlyScript {
  static final Path SCRIPT = LocalFlinkCluster.HOME.resolve("scripts/nightly.sh");
  static final LocalDate FIRST = LocalDate.of(2026, 11, 1);

  record Result(int exit, String output) {}

  private NightlyScript() {}

  /** Copies the fixtures into inbox as nights from FIRST + firstNight, one a night. */
  static void addNights(Path inbox, int firstNight, List<String> fixtures) throws IOException {
    Files.createDirectories(inbox);
    for (int i = 0; i < fixtures.size(); i++) {
      Files.copy(Path.of(CompareCliTest.fixture(fixtures.get(i))),
          inbox.resolve("mixed-" + FIRST.plusDays(firstNight + i) + ".txt.gz"));
    }
  }

  /** scripts/nightly.sh ARGS with the given extra environment, its exit code and output. */
  static Result run(Path work, Map<String, String> env, String... args)
      throws IOException, InterruptedException {
    Path launcher = work.resolve("loadprof-under-test");
    if (!Files.exists(launcher)) {
      String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
      Files.writeString(launcher, "#!/bin/sh\nexec '" + java + "' -Xmx1g -cp '"
          + System.getProperty("java.class.path") + "' dev.loadprof.cli.LoadprofCli \"$@\"\n");
      Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
    List<String> command = new ArrayList<>(List.of(SCRIPT.toString()));
    command.addAll(List.of(args));
    Path log = Files.createTempFile(work, "nightly-sh", ".out");
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(log.toFile());
    builder.environment().put("LOADPROF", launcher.toString());
    builder.environment().putAll(env);
    Process process = builder.start();
    if (!process.waitFor(8, TimeUnit.MINUTES)) {
      process.destroyForcibly();
      fail("scripts/nightly.sh timed out; see " + log);
    }
    String output = Files.readString(log);
    System.out.print(output);
    return new Result(process.exitValue(), output);
  }
}
