package dev.loadprof.cli;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * .ci/run's tool check ({@code .ci/run --check-tools}, the step before the build): with go hidden
 * from the PATH it fails and names go; CI also makes the tests require their tools
 * (LOADPROF_REQUIRE_TOOLS=1, see RequiredTools).
 */
class CiScriptTest {
  private static final Path CI_RUN = Paths.get("..", ".ci", "run").toAbsolutePath().normalize();

  @TempDir Path bin;

  record Run(int exit, String output) {}

  private static Run checkTools(String path) throws IOException, InterruptedException {
    ProcessBuilder b = new ProcessBuilder("bash", CI_RUN.toString(), "--check-tools")
        .redirectErrorStream(true);
    b.environment().put("PATH", path);
    Process p = b.start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the tool check hung");
    return new Run(p.exitValue(), output);
  }

  @Test
  void withGoHiddenFromThePathCiFailsNamingGo() throws Exception {
    // Every command of this PATH but go, as links in one directory.
    for (String dir : System.getenv("PATH").split(File.pathSeparator)) {
      Path d = Paths.get(dir.isEmpty() ? "." : dir);
      if (!Files.isDirectory(d)) {
        continue;
      }
      try (DirectoryStream<Path> commands = Files.newDirectoryStream(d)) {
        for (Path command : commands) {
          Path link = bin.resolve(command.getFileName().toString());
          if (!command.getFileName().toString().equals("go") && !Files.exists(link,
              java.nio.file.LinkOption.NOFOLLOW_LINKS) && Files.isExecutable(command)) {
            Files.createSymbolicLink(link, command.toAbsolutePath());
          }
        }
      }
    }
    Run run = checkTools(bin.toString());
    assertEquals(1, run.exit(), run.output());
    assertThat(run.output(), containsString("CI: go is not on the PATH"));
    assertThat(run.output(), containsString("install golang-go"));
    assertThat(run.output(), containsString("CI: failed: tools missing"));
  }

  @Test
  void withGoOnThePathGoIsNotNamed() throws Exception {
    Run run = checkTools(System.getenv("PATH"));
    assertThat(run.output(), not(containsString("go is not on the PATH")));
  }

  @Test
  void ciMakesTheTestsRequireTheirTools() throws IOException {
    assertThat(Files.readString(CI_RUN), containsString("export LOADPROF_REQUIRE_TOOLS=1"));
  }
}
