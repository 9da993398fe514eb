package dev.loadprof.cli;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.options.PipelineOptionsRegistrar;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.TypeConversionException;

/**
 * Beam and Flink pipeline options on loadprof's command line. They are taken out before
 * picocli parses loadprof's own options, checked against the options that Beam has registered
 * (runners register theirs), and handed to Beam unchanged. An unknown name or a value of the
 * wrong kind is a loadprof message that names the option, not Beam's or Jackson's text.
 */
final class PipelineOptionArgs {
  /** The command line split in two: loadprof's arguments, and the pipeline options. */
  record Split(String[] loadprofArgs, List<String> pipelineArgs) {}

  private static Map<String, Class<?>> registered;

  private PipelineOptionArgs() {}

  /** Splits the arguments of whichever subcommand of {@code top} they name. */
  static Split split(CommandLine top, String[] args) throws UsageException {
    List<String> loadprof = new ArrayList<>();
    List<String> pipeline = new ArrayList<>();
    int i = 0;
    CommandLine command = null;
    while (i < args.length && command == null) {
      String a = args[i++];
      loadprof.add(a);
      if (a.equals("--") || !a.startsWith("-")) {
        command = top.getSubcommands().get(a);
        if (command == null) {
          break; // not a command: picocli says so
        }
      }
    }
    if (command == null) {
      loadprof.addAll(Arrays.asList(args).subList(i, args.length));
      return new Split(loadprof.toArray(new String[0]), pipeline);
    }
    CommandSpec spec = command.getCommandSpec();
    for (; i < args.length; i++) {
      String a = args[i];
      if (a.equals("--")) {
        loadprof.addAll(Arrays.asList(args).subList(i, args.length));
        break;
      }
      int eq = a.indexOf('=');
      String name = a.startsWith("--") && eq > 0 ? a.substring(0, eq) : a;
      OptionSpec own = a.startsWith("-") ? spec.findOption(name) : null;
      if (own != null || !a.startsWith("--") || a.length() == 2) {
        loadprof.add(a);
        if (own != null && eq < 0 && own.arity().max() > 0 && i + 1 < args.length) {
          loadprof.add(args[++i]); // the option's value, whatever it looks like
        }
        continue;
      }
      Class<?> type = registered().get(name.substring(2));
      if (type == null) {
        throw new UsageException(unknown(name, top, command));
      }
      String value;
      if (eq > 0) {
        value = a.substring(eq + 1);
      } else if (type == boolean.class || type == Boolean.class) {
        value = null; // a bare --flag means true, as in Beam
      } else if (i + 1 < args.length) {
        value = args[++i];
      } else {
        throw new UsageException(name + " needs a value; give " + name + "=VALUE or "
            + name + " VALUE");
      }
      if (value != null) {
        checkValue(name, type, value);
      }
      pipeline.add(value == null ? name : name + "=" + value);
    }
    return new Split(loadprof.toArray(new String[0]), pipeline);
  }

  /** Beam's options from checked arguments; anything Beam still refuses is bad usage. */
  static <T extends PipelineOptions> T parse(String[] args, Class<T> type) throws UsageException {
    try {
      return PipelineOptionsFactory.fromArgs(args).as(type);
    } catch (IllegalArgumentException e) {
      throw new UsageException("the pipeline options " + String.join(" ", args)
          + " were not accepted together; give each option once, with a value of its kind");
    }
  }

  /** A Beam runner name (e.g. FlinkRunner) that no runner on the classpath answers to. */
  static void checkRunner(String name) {
    BeamOptionsRegistry.whole();
    try {
      PipelineOptionsFactory.fromArgs("--runner=" + name).create();
    } catch (IllegalArgumentException e) {
      throw new TypeConversionException("no runner '" + name + "'; give direct, flink,"
          + " flink-cluster or a runner config .properties file (see runner-configs/)");
    }
  }

  private static String unknown(String name, CommandLine top, CommandLine command) {
    String commandName = command.getCommandSpec().qualifiedName();
    for (CommandLine other : top.getSubcommands().values()) {
      if (other != command && other.getCommandSpec().findOption(name) != null) {
        return name + " is an option of " + other.getCommandSpec().qualifiedName() + ", not of "
            + commandName + "; run '" + commandName + " --help' for its options";
      }
    }
    String stores = StoreEnvironment.onClasspath() || !STORE_OPTION.matcher(name).find() ? ""
        : " (S3 and HDFS options need an s3:// or hdfs:// input or -o, which puts the stores"
        + " module on the classpath)";
    return Usage.unknownOption(name, command) + stores;
  }

  /** Names of the stores module's options (S3, HDFS), which only it registers. */
  private static final java.util.regex.Pattern STORE_OPTION =
      java.util.regex.Pattern.compile("(?i)s3|aws|hdfs|hadoop|endpoint");

  private static void checkValue(String name, Class<?> type, String value)
      throws UsageException {
    String kind = null;
    try {
      if (type == int.class || type == Integer.class || type == long.class
          || type == Long.class || type == short.class || type == Short.class) {
        kind = "a whole number";
        Long.parseLong(value);
      } else if (type == double.class || type == Double.class || type == float.class
          || type == Float.class) {
        kind = "a number";
        Double.parseDouble(value);
      } else if (type == boolean.class || type == Boolean.class) {
        kind = "true or false";
        if (!value.equals("true") && !value.equals("false")) {
          throw new IllegalArgumentException();
        }
      } else if (type.isEnum()) {
        List<String> names = new ArrayList<>();
        for (Object c : type.getEnumConstants()) {
          names.add(((Enum<?>) c).name());
        }
        kind = "one of " + String.join(", ", names);
        if (!names.contains(value)) {
          throw new IllegalArgumentException();
        }
      }
    } catch (IllegalArgumentException e) {
      throw new UsageException(name + " takes " + kind + ", got '" + value + "'");
    }
  }

  /**
   * Option name to value type, over every options interface Beam registers: PipelineOptions and
   * those of the registrars on the classpath (runners, IOs), the set PipelineOptionsFactory
   * starts with. Read from the registrars directly: the factory validates every interface when
   * it starts (about 0.5 CPU-s), which a mistyped option should not have to wait for.
   */
  private static synchronized Map<String, Class<?>> registered() {
    if (registered == null) {
      registered = optionTypes(registeredInterfaces());
    }
    return registered;
  }

  /** PipelineOptions and the interfaces of every PipelineOptionsRegistrar on the classpath. */
  static List<Class<? extends PipelineOptions>> registeredInterfaces() {
    List<Class<? extends PipelineOptions>> interfaces = new ArrayList<>();
    interfaces.add(PipelineOptions.class);
    for (PipelineOptionsRegistrar registrar : ServiceLoader.load(PipelineOptionsRegistrar.class,
        Thread.currentThread().getContextClassLoader())) {
      registrar.getPipelineOptions().forEach(interfaces::add);
    }
    return interfaces;
  }

  /** Option name to value type of the given options interfaces (the first one wins). */
  static Map<String, Class<?>> optionTypes(
      Iterable<Class<? extends PipelineOptions>> interfaces) {
    Map<String, Class<?>> byName = new TreeMap<>();
    for (Class<? extends PipelineOptions> options : interfaces) {
      for (Method m : options.getMethods()) {
        String property = propertyOf(m);
        if (property != null) {
          byName.putIfAbsent(property, m.getReturnType());
        }
      }
    }
    return byName;
  }

  /** The bean property a getter reads ({@code getJobName} gives jobName), else null. */
  private static String propertyOf(Method m) {
    if (m.getParameterCount() != 0 || m.getDeclaringClass() == Object.class) {
      return null;
    }
    String n = m.getName();
    String rest = n.startsWith("get") ? n.substring(3)
        : n.startsWith("is") && m.getReturnType() == boolean.class ? n.substring(2) : null;
    if (rest == null || rest.isEmpty()) {
      return null;
    }
    if (rest.length() > 1 && Character.isUpperCase(rest.charAt(1))) {
      return rest; // getURL gives URL, as java.beans decapitalizes
    }
    return Character.toLowerCase(rest.charAt(0)) + rest.substring(1);
  }
}
