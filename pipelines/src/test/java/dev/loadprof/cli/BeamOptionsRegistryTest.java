package dev.loadprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which registrars of Beam's options a job in this JVM that reads a store registers, and which
 * commands the warm-up guesses to be one. Their end to end use (the registry made small, then
 * whole for a job on Beam, the same bytes) is in StoresIT.
 */
class BeamOptionsRegistryTest {
  private static final String SERVICES =
      "META-INF/services/org.apache.beam.sdk.options.PipelineOptionsRegistrar";

  @TempDir Path dir;

  private URL jar(String name, String services) throws Exception {
    Path root = dir.resolve(name);
    Files.createDirectories(root.resolve(SERVICES).getParent());
    Files.writeString(root.resolve(SERVICES), services);
    Files.writeString(root.resolve("other.txt"), name);
    return root.toUri().toURL();
  }

  @Test
  void onlyFilesThatNameStoreRegistrarsAloneAreListed() throws Exception {
    URL aws = jar("aws", "org.apache.beam.sdk.io.aws2.options.AwsPipelineOptionsRegistrar\n"
        + "org.apache.beam.sdk.io.aws2.kinesis.KinesisIOOptions$KinesisIOOptionsRegistrar\n");
    URL core = jar("core", "org.apache.beam.sdk.options.DefaultPipelineOptionsRegistrar\n");
    URL mixed = jar("mixed", "org.apache.beam.sdk.io.hdfs.HadoopFileSystemOptionsRegistrar\n"
        + "org.apache.beam.runners.direct.DirectRegistrar$Options\n");
    URL stores = jar("stores", "# loadprof's\n\n  dev.loadprof.stores.StoreOptionsRegistrar"
        + "  # S3Options\n");
    URL empty = jar("empty", "# nothing\n");
    try (URLClassLoader parent = new URLClassLoader(new URL[] {aws, core, mixed, stores, empty},
        ClassLoader.getPlatformClassLoader())) {
      ClassLoader only = new BeamOptionsRegistry.StoreRegistrarsOnly(parent);
      assertEquals(List.of(aws.toString(), stores.toString()), roots(only, SERVICES));
      assertEquals(5, Collections.list(only.getResources("other.txt")).size(),
          "other resources as the parent lists them");
    }
  }

  private static List<String> roots(ClassLoader loader, String name) throws Exception {
    List<String> roots = new ArrayList<>();
    for (URL u : Collections.list(loader.getResources(name))) {
      String s = u.toString();
      roots.add(s.substring(0, s.length() - name.length()));
    }
    return roots;
  }

  @Test
  void theWarmUpGuessesAJobInThisJvmFromTheCommandLine() {
    Object[][] cases = {
        {"analyze --nights 2026-10-30 --out out s3://b/archive", true},
        {"compare --baseline s3://b/a --candidate s3://b/c", true},
        {"nightly -o out hdfs://nn/archive", true},
        {"nightly s3://b/archive -- --out=s3://b/x", true}, // after --: inputs, not options
        {"analyze --runner flink --out out s3://b/archive", false},
        {"analyze --runner=direct s3://b/archive", false},
        {"analyze --out s3://b/out s3://b/archive", false},
        {"analyze --out=s3://b/out s3://b/archive", false},
        {"analyze -o hdfs://nn/out s3://b/archive", false},
        {"analyze -os3://b/out s3://b/archive", false},
        {"archive --out s3://b/archive trace.txt", false},
        {"--debug analyze s3://b/archive", false}, // options first: not guessed, made whole
        {"", false},
    };
    for (Object[] c : cases) {
      String line = (String) c[0];
      List<String> args = line.isEmpty() ? List.of() : List.of(line.split(" "));
      assertEquals(c[1], StoreWarmUp.mayReadStoreHere(args), line);
    }
  }
}
