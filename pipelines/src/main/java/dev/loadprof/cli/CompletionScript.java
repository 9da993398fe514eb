package dev.loadprof.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.AutoComplete;

/**
 * Writes the bash/zsh completion script of loadprof to the given path. The build runs it
 * (package phase) so the script always matches the options.
 */
public final class CompletionScript {
  private CompletionScript() {}

  public static void main(String[] args) throws IOException {
    Path target = Path.of(args[0]);
    Files.createDirectories(target.toAbsolutePath().getParent());
    Files.writeString(target, script(), StandardCharsets.UTF_8);
  }

  static String script() {
    return AutoComplete.bash("loadprof", LoadprofCli.commandLine());
  }
}
