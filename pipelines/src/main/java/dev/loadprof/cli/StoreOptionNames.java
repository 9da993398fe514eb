package dev.loadprof.cli;

import java.lang.reflect.Method;
import java.util.Set;
import java.util.TreeSet;

/**
 * The pipeline options that say how to reach a store (S3's endpoint, region, credentials and
 * client; HDFS's configuration), read from the store modules' option interfaces when they are
 * on the class path. A job given only these still runs in the CLI's JVM: they tell Beam's file
 * systems, which that job reads through too, where the store is, not how to run the job.
 */
final class StoreOptionNames {
  private static final String[] STORE_OPTIONS = {
      "org.apache.beam.sdk.io.aws2.options.S3Options",
      "org.apache.beam.sdk.io.aws2.options.AwsOptions",
      "org.apache.beam.sdk.io.hdfs.HadoopFileSystemOptions"};
  private static final Set<String> NAMES = names();

  private StoreOptionNames() {}

  /** Whether {@code arg} ("--name=value" or "--name") sets a store's option. */
  static boolean isStoreOption(String arg) {
    if (!arg.startsWith("--")) {
      return false;
    }
    int eq = arg.indexOf('=');
    return NAMES.contains(arg.substring(2, eq < 0 ? arg.length() : eq));
  }

  private static Set<String> names() {
    Set<String> names = new TreeSet<>();
    for (String type : STORE_OPTIONS) {
      Class<?> options;
      try {
        options = Class.forName(type, false, StoreOptionNames.class.getClassLoader());
      } catch (ClassNotFoundException | LinkageError e) {
        continue; // the store's module is not on the class path: its options are not known
      }
      for (Method m : options.getDeclaredMethods()) {
        String name = m.getName();
        int prefix = name.startsWith("get") ? 3 : name.startsWith("is") ? 2 : 0;
        if (prefix > 0 && name.length() > prefix && m.getParameterCount() == 0) {
          names.add(Character.toLowerCase(name.charAt(prefix)) + name.substring(prefix + 1));
        }
      }
    }
    return names;
  }
}
