package dev.loadprof.cli;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.testtools.RequiredTools;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A trace this user may not read is exit 2 and one line that says so (it was exit 1, "the job
 * failed: ... (Permission denied)"). Root reads any file, so as root the job runs as nobody
 * (runuser), from the packaged jars, which nobody can read.
 */
class UnreadableTraceIT {
  @TempDir Path tmp;

  @Test
  void aTraceThisUserMayNotReadIsOneLine() throws Exception {
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxrwxrwx"));
    Path trace = Files.copy(Paths.get("..", "examples", "phases.txt.gz"), tmp.resolve("x.txt.gz"));
    Files.setPosixFilePermissions(trace, PosixFilePermissions.fromString("---------"));
    for (String command : List.of("analyze", "archive")) {
      String out = tmp.resolve(command + "-out").toString();
      int exit;
      String err;
      if (RequiredTools.uid() == 0) {
        Path target = Paths.get("target").toAbsolutePath();
        List<String> cmd = new ArrayList<>(List.of("runuser", "-u", "nobody", "--",
            ProcessHandle.current().info().command().orElse("java"), "-cp",
            target.resolve("loadprof.jar") + ":" + target.resolve("lib") + "/*",
            LoadprofCli.class.getName(), command, "-o", out, trace.toString()));
        Process p = new ProcessBuilder(cmd).directory(tmp.toFile())
            .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(5, TimeUnit.MINUTES));
        exit = p.exitValue();
      } else {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        exit = LoadprofCli.run(new String[] {command, "-o", out, trace.toString()},
            new PrintStream(new ByteArrayOutputStream()), new PrintStream(bytes, true));
        err = bytes.toString(StandardCharsets.UTF_8);
      }
      assertEquals(ExitCode.BAD_INPUT, exit, command + ": " + err);
      assertEquals(1, err.lines().count(), command + ": " + err);
      assertThat(err, containsString("loadprof: " + trace + " cannot be read by this user"
          + " (permission denied"));
    }
  }
}
