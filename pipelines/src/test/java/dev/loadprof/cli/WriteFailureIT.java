package dev.loadprof.cli;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.loadprof.testtools.RequiredTools;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** An output directory that cannot be written: its cause by name, and the fix (-o DIR). */
class WriteFailureIT {
  @TempDir Path dir;

  static Stream<Arguments> causes() {
    return Stream.of(
        Arguments.of(new AccessDeniedException("/srv/x"), "Permission denied in /srv"),
        Arguments.of(new NoSuchFileException("/srv/x"), "no such directory: /srv"),
        Arguments.of(new FileSystemException("/srv/x", null, "No space left on device"),
            "No space left on device in /srv (the disk is full)"),
        Arguments.of(new FileSystemException("/srv/x", null, "Read-only file system"),
            "Read-only file system in /srv"));
  }

  @ParameterizedTest
  @MethodSource("causes")
  void theCauseIsNamedWithTheFix(IOException e, String cause) {
    String line = OutputDir.notWritableLine("out", Path.of("/srv"), e);
    assertThat(line, containsString("cannot write --out out: " + cause));
    assertThat(line, containsString("give a directory you can write with -o DIR"));
  }

  /**
   * nobody in a directory it cannot write, with the default -o: record and analyze refuse at
   * once (record before running the program), saying "Permission denied" and -o DIR.
   */
  @Test
  void nobodyInADirectoryItCannotWriteIsToldWhyAndWhatToDo() throws Exception {
    RequiredTools.requireRoot("runuser -u nobody needs it");
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path trace = Paths.get("..", "examples", "phases.txt.gz").toAbsolutePath().normalize();
    for (List<String> args : List.of(List.of("record", "--", "true"),
        List.of("analyze", trace.toString()))) {
      Path lib = Paths.get("target").toAbsolutePath();
      List<String> cmd = new ArrayList<>(List.of("runuser", "-u", "nobody", "--",
          ProcessHandle.current().info().command().orElse("java"), "-cp",
          lib.resolve("loadprof.jar") + ":" + lib.resolve("lib") + "/*",
          "dev.loadprof.cli.LoadprofCli"));
      cmd.addAll(args);
      Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
          .start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertEquals(true, p.waitFor(2, TimeUnit.MINUTES));
      assertEquals(ExitCode.BAD_INPUT, p.exitValue(), out);
      assertThat(out, containsString("cannot write --out loadprof-out: Permission denied in "
          + dir));
      assertThat(out, containsString("-o DIR"));
    }
  }
}
