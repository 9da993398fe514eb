package dev.loadprof.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunTempDirTest {
  @TempDir
  Path dir;

  @Test
  void deletesATreeOfFilesAndDirectories() throws Exception {
    Path root = Files.createDirectories(dir.resolve("run/minicluster_1/tm_0/blobStorage"));
    Files.writeString(root.resolve("blob"), "x");
    Files.writeString(dir.resolve("run/flink-rpc.jar"), "jar");
    RunTempDir.deleteTree(dir.resolve("run"));
    assertFalse(Files.exists(dir.resolve("run")));
  }

  @Test
  void aMissingTreeIsNotAnError() {
    RunTempDir.deleteTree(dir.resolve("never-made")); // returns, never throws
    assertFalse(Files.exists(dir.resolve("never-made")));
  }
}
