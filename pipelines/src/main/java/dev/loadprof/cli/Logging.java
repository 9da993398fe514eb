package dev.loadprof.cli;

import java.util.List;

/**
 * Console logging. slf4j-simple (the runtime backend) reads its levels once, from
 * simplelogger.properties, where frameworks are at ERROR and loadprof at INFO. {@code --verbose}
 * must take effect before Beam or Flink create their first logger, so it is read from the raw
 * arguments, before anything is parsed.
 */
final class Logging {
  static final String VERBOSE = "--verbose";
  /** Prints a failure's whole stack trace (global: any command, before or after its name). */
  static final String DEBUG = "--debug";
  private static final String DEFAULT_LEVEL = "org.slf4j.simpleLogger.defaultLogLevel";
  /** Loggers that are off unless verbose: a failed Flink job's ~200 lines of stack traces. */
  private static final String[] QUIET_BY_DEFAULT = {"org.apache.flink",
      "org.apache.beam.runners.flink"};

  private Logging() {}

  /** With {@code --verbose} among the options (before {@code --}), frameworks log at INFO. */
  static void configure(List<String> args) {
    for (String a : args) {
      if (a.equals("--")) {
        return;
      }
      if (a.equals(VERBOSE)) {
        System.setProperty(DEFAULT_LEVEL, "info");
        for (String quietByDefault : QUIET_BY_DEFAULT) { // off in simplelogger.properties
          System.setProperty("org.slf4j.simpleLogger.log." + quietByDefault, "info");
        }
        return;
      }
    }
  }

  /** Whether {@code --debug} is among the options (before {@code --}). */
  static boolean debug(List<String> args) {
    for (String a : args) {
      if (a.equals("--")) {
        return false;
      }
      if (a.equals(DEBUG)) {
        return true;
      }
    }
    return false;
  }
}
