package dev.loadprof.pipelines;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A named set of Beam pipeline options for one runner, read from {@code
 * runner-configs/<name>.properties} (e.g. {@code direct}, {@code flink-local}, {@code
 * flink-cluster}) or from any {@code .properties} file.
 *
 * <p>Each key is a Beam option name ({@code runner}, {@code flinkMaster}, {@code parallelism}, ...)
 * and becomes {@code --key=value}. {@link #withUserArgs} puts these arguments before the user's
 * own and drops every config key the user sets, so the user always wins (Beam rejects a scalar
 * option given twice and would concatenate list options such as {@code filesToStage}).
 *
 * <p>Values may contain {@code ${loadprof.home}}, replaced by the repository root. The root is the
 * system property {@code loadprof.home} or else the nearest directory, from the working directory
 * upwards, that contains {@code runner-configs/}.
 */
public final class RunnerConfig {

  /** System property naming the repository root (the directory holding runner-configs/). */
  public static final String HOME_PROPERTY = "loadprof.home";

  /** Directory below the repository root holding the named configs. */
  public static final String CONFIG_DIR = "runner-configs";

  /** Argument that {@link #expandArgs} replaces by the named config: {@code --runnerConfig=NAME}. */
  public static final String RUNNER_CONFIG_ARG = "--runnerConfig=";

  /**
   * System property that turns Beam's DirectRunner model checks on in a config that names them
   * (the tests' jobs, set by the build): users' jobs leave them off (direct.properties says why).
   */
  public static final String MODEL_CHECKS_PROPERTY = "loadprof.modelChecks";
  private static final List<String> MODEL_CHECKS =
      List.of("enforceImmutability", "enforceEncodability");

  private static final Pattern OPTION_NAME = Pattern.compile("[A-Za-z][A-Za-z0-9]*");
  private static final String HOME_PLACEHOLDER = "${" + HOME_PROPERTY + "}";

  private final String name;
  private final Path source;
  private final Map<String, String> options;

  private RunnerConfig(String name, Path source, Map<String, String> options) {
    this.name = name;
    this.source = source;
    this.options = Collections.unmodifiableMap(options);
  }

  /** Loads a config by name ({@code flink-local}) or by path to a {@code .properties} file. */
  public static RunnerConfig load(String nameOrPath) {
    return load(nameOrPath, null);
  }

  /**
   * Loads a config by name or path; {@code home} is the repository root, or null to resolve it
   * from the {@code loadprof.home} system property or the working directory.
   */
  public static RunnerConfig load(String nameOrPath, Path home) {
    if (nameOrPath == null || nameOrPath.isBlank()) {
      throw new IllegalArgumentException("runner config name or path is empty");
    }
    if (looksLikePath(nameOrPath)) {
      Path file = Paths.get(nameOrPath).toAbsolutePath().normalize();
      if (!Files.isRegularFile(file)) {
        throw new IllegalArgumentException("runner config file not found: " + file);
      }
      return read(baseName(file), file, home);
    }
    Path root = home != null ? home : resolveHome();
    Path file = root.resolve(CONFIG_DIR).resolve(nameOrPath + ".properties");
    if (!Files.isRegularFile(file)) {
      throw new IllegalArgumentException(
          "unknown runner config '" + nameOrPath + "'; available in " + file.getParent() + ": "
              + availableNames(file.getParent()));
    }
    return read(nameOrPath, file, root);
  }

  /**
   * Replaces a {@code --runnerConfig=NAME_OR_PATH} argument by that config's options, placed
   * before the remaining arguments (which override them). Without such an argument the
   * arguments are returned unchanged.
   */
  public static String[] expandArgs(String... args) {
    String configName = null;
    List<String> rest = new ArrayList<>();
    for (String arg : args) {
      if (arg.startsWith(RUNNER_CONFIG_ARG)) {
        if (configName != null) {
          throw new IllegalArgumentException("--runnerConfig given more than once");
        }
        configName = arg.substring(RUNNER_CONFIG_ARG.length());
      } else {
        rest.add(arg);
      }
    }
    if (configName == null) {
      return args.clone();
    }
    return load(configName).withUserArgs(rest.toArray(new String[0]));
  }

  /** Config name: the file name without {@code .properties}. */
  public String name() {
    return name;
  }

  /** The properties file this config was read from. */
  public Path source() {
    return source;
  }

  /** Option name to value (placeholders already expanded), sorted by name. */
  public Map<String, String> options() {
    return options;
  }

  /** The config as Beam arguments, {@code --key=value}, sorted by key. */
  public List<String> toArgs() {
    List<String> args = new ArrayList<>(options.size());
    options.forEach((key, value) -> args.add("--" + key + "=" + value));
    return args;
  }

  /**
   * This config's arguments followed by {@code userArgs}; config keys that the user sets (as
   * {@code --key=value} or a bare {@code --flag}) are left out so the user's value applies.
   */
  public String[] withUserArgs(String... userArgs) {
    Set<String> userKeys = new HashSet<>();
    for (String arg : userArgs) {
      String key = optionName(arg);
      if (key != null) {
        userKeys.add(key);
      }
    }
    List<String> merged = new ArrayList<>();
    options.forEach(
        (key, value) -> {
          if (!userKeys.contains(key)) {
            merged.add("--" + key + "=" + value);
          }
        });
    merged.addAll(Arrays.asList(userArgs));
    return merged.toArray(new String[0]);
  }

  @Override
  public String toString() {
    return "RunnerConfig[" + name + " from " + source + ": " + options + "]";
  }

  /** Repository root: {@code -Dloadprof.home}, else the working directory or its nearest ancestor with runner-configs/. */
  public static Path resolveHome() {
    String property = System.getProperty(HOME_PROPERTY);
    if (property != null && !property.isBlank()) {
      Path home = Paths.get(property).toAbsolutePath().normalize();
      if (!Files.isDirectory(home.resolve(CONFIG_DIR))) {
        throw new IllegalStateException(
            "-D" + HOME_PROPERTY + "=" + property + " has no " + CONFIG_DIR + "/ directory");
      }
      return home;
    }
    Path workingDir = Paths.get("").toAbsolutePath().normalize();
    for (Path dir = workingDir; dir != null; dir = dir.getParent()) {
      if (Files.isDirectory(dir.resolve(CONFIG_DIR))) {
        return dir;
      }
    }
    throw new IllegalStateException(
        "cannot find " + CONFIG_DIR + "/ from " + workingDir + "; set -D" + HOME_PROPERTY
            + "=<loadprof repository root>");
  }

  private static RunnerConfig read(String name, Path file, Path home) {
    Properties properties = new Properties();
    try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      properties.load(reader);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read runner config " + file, e);
    }
    Map<String, String> options = new TreeMap<>();
    for (String key : properties.stringPropertyNames()) {
      if (!OPTION_NAME.matcher(key).matches()) {
        throw new IllegalArgumentException(
            file + ": '" + key + "' is not a Beam option name (write runner=..., not --runner=...)");
      }
      String value = properties.getProperty(key).trim();
      if (value.contains(HOME_PLACEHOLDER)) {
        Path root = home != null ? home : resolveHome();
        value = value.replace(HOME_PLACEHOLDER, root.toString());
      }
      options.put(key, value);
    }
    if (Boolean.getBoolean(MODEL_CHECKS_PROPERTY)) {
      for (String check : MODEL_CHECKS) {
        options.computeIfPresent(check, (k, v) -> "true");
      }
    }
    return new RunnerConfig(name, file, options);
  }

  /** Option name of a {@code --key=value} or {@code --flag} argument, else null. */
  private static String optionName(String arg) {
    if (!arg.startsWith("--")) {
      return null;
    }
    int equals = arg.indexOf('=');
    return equals < 0 ? arg.substring(2) : arg.substring(2, equals);
  }

  private static boolean looksLikePath(String nameOrPath) {
    return nameOrPath.endsWith(".properties") || nameOrPath.contains("/")
        || nameOrPath.contains(java.io.File.separator);
  }

  private static String baseName(Path file) {
    String fileName = file.getFileName().toString();
    return fileName.endsWith(".properties")
        ? fileName.substring(0, fileName.length() - ".properties".length())
        : fileName;
  }

  private static List<String> availableNames(Path dir) {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(dir)) {
      return files
          .filter(f -> f.getFileName().toString().endsWith(".properties"))
          .map(RunnerConfig::baseName)
          .sorted()
          .toList();
    } catch (IOException e) {
      return List.of();
    }
  }
}
