package dev.loadprof.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Set;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.options.PipelineOptionsRegistrar;
import org.slf4j.LoggerFactory;

/**
 * Beam's options registry, made small for a job in this JVM that reads a store. Beam's
 * PipelineOptionsFactory checks every options interface its registrars name (16 on loadprof's
 * classpath) against every other when it is first used: 0.3–0.5 s of one core that an analyze
 * of an archive on S3 waited for (bench/RESULTS.md section 42). Such a job needs Beam's options
 * only to reach the store (AwsOptions, S3Options, HadoopFileSystemOptions), so the warm-up
 * thread ({@link StoreWarmUp}) builds the registry from the store modules' registrars alone
 * ({@link #startSmall}); anything else that asks Beam for options first makes it whole again
 * ({@link #whole}): Beam's own reset, which registers every interface as at first. An interface
 * left out is registered by Beam when options are first viewed as it, so nothing depends on
 * this but the time.
 */
final class BeamOptionsRegistry {
  /**
   * The registrars of the store modules: loadprof's stores, Beam's AWS and HDFS modules. Kinesis
   * is not a store, but Beam's AWS module lists its registrar in the same file as AwsOptions',
   * and a file is listed whole or not at all.
   */
  static final Set<String> STORE_REGISTRARS = Set.of(
      "dev.loadprof.stores.StoreOptionsRegistrar",
      "org.apache.beam.sdk.io.aws2.options.AwsPipelineOptionsRegistrar",
      "org.apache.beam.sdk.io.aws2.kinesis.KinesisIOOptions$KinesisIOOptionsRegistrar",
      "org.apache.beam.sdk.io.hdfs.HadoopFileSystemOptionsRegistrar");
  private static final String SERVICES =
      "META-INF/services/" + PipelineOptionsRegistrar.class.getName();

  /** The loader the registry was made through, until it is made whole. */
  private static StoreRegistrarsOnly smallLoader;
  /** Made whole (or asked to be) before the warm-up made it small: it stays whole. */
  private static boolean wholeAsked;

  private BeamOptionsRegistry() {}

  /**
   * On the calling thread (a warm-up's), makes Beam's registry of the store modules' options
   * only; does nothing when Beam's options were asked for whole first. Holds this class's lock
   * while it works, so {@link #whole} waits for it rather than meet a registry half made.
   */
  static synchronized void startSmall() {
    if (wholeAsked) {
      return;
    }
    Thread thread = Thread.currentThread();
    ClassLoader before = thread.getContextClassLoader();
    StoreRegistrarsOnly only = new StoreRegistrarsOnly(BeamOptionsRegistry.class.getClassLoader());
    thread.setContextClassLoader(only); // Beam's registry looks for registrars through it
    try {
      initialize(); // nothing new if another thread made the registry first: it is whole
    } finally {
      thread.setContextClassLoader(before);
    }
    smallLoader = only;
  }

  /** Makes Beam's registry whole if it was made small: before options for a Beam job. */
  static synchronized void whole() {
    wholeAsked = true;
    if (smallLoader == null || !smallLoader.listed) {
      return;
    }
    ClassLoader before = Thread.currentThread().getContextClassLoader();
    Thread.currentThread().setContextClassLoader(BeamOptionsRegistry.class.getClassLoader());
    try {
      PipelineOptionsFactory.resetCache(); // every registrar's interfaces, as at first
    } finally {
      Thread.currentThread().setContextClassLoader(before);
    }
    smallLoader = null;
    // Not a static logger: this class is loaded on the warm-up thread, before the console's
    // log levels are set (Logging).
    LoggerFactory.getLogger(BeamOptionsRegistry.class).debug(
        "Beam's options registry made whole for a job on Beam");
  }

  /** Says at DEBUG which registry a job in this JVM parses its store options with. */
  static void logUse() {
    LoggerFactory.getLogger(BeamOptionsRegistry.class).debug(isSmall()
        ? "Beam's options registry of the store modules' options only"
        : "Beam's options registry whole");
  }

  /** Whether the registry holds the store modules' options only (tests). */
  static synchronized boolean isSmall() {
    return smallLoader != null && smallLoader.listed;
  }

  private static void initialize() {
    try {
      Class.forName(PipelineOptionsFactory.class.getName(), true,
          BeamOptionsRegistry.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * A class loader that lists, of the registrars of Beam's options, only the files that name
   * store registrars alone; it loads every class as its parent does.
   */
  static final class StoreRegistrarsOnly extends ClassLoader {
    /** Whether the registrars were asked for through this loader. */
    volatile boolean listed;

    StoreRegistrarsOnly(ClassLoader parent) {
      super(parent);
    }

    @Override
    public Enumeration<URL> getResources(String name) throws IOException {
      Enumeration<URL> all = super.getResources(name);
      if (!name.equals(SERVICES)) {
        return all;
      }
      listed = true;
      List<URL> kept = new ArrayList<>();
      for (URL url : Collections.list(all)) {
        if (namesStoreRegistrarsOnly(url)) {
          kept.add(url);
        }
      }
      return Collections.enumeration(kept);
    }

    private static boolean namesStoreRegistrarsOnly(URL url) throws IOException {
      boolean any = false;
      try (BufferedReader in = new BufferedReader(new InputStreamReader(url.openStream(),
          StandardCharsets.UTF_8))) {
        for (String line = in.readLine(); line != null; line = in.readLine()) {
          int hash = line.indexOf('#');
          String name = (hash < 0 ? line : line.substring(0, hash)).trim();
          if (name.isEmpty()) {
            continue;
          }
          if (!STORE_REGISTRARS.contains(name)) {
            return false;
          }
          any = true;
        }
      }
      return any;
    }
  }
}
