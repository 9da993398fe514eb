package dev.loadprof.cli;

import java.lang.management.ManagementFactory;
import javax.management.JMException;
import javax.management.ObjectName;

/**
 * Adds HotSpot compiler directives to this JVM as it runs, as {@code jcmd PID
 * Compiler.directives_add FILE} does. The launcher names a file for long runs (system property
 * {@value #PROPERTY}) that keeps the code running once after the read at C1. Not
 * -XX:CompilerDirectivesFile: that prints "1 compiler directives added" on stdout, which is the
 * CLI's, and muting the VM's output for it (-XX:-DisplayVMOutput) also muted the JVM's start-up
 * errors ("Initial heap size set to a larger value than the maximum heap size"): exit 1, no word.
 * A diagnostic command answers in a string instead.
 */
final class CompilerDirectives {
  static final String PROPERTY = "loadprof.c1Directives";

  private CompilerDirectives() {}

  /**
   * Adds the launcher's directives, if it named a file, on a thread of its own: setting up JMX
   * takes ~0.1 s, and the code they are for runs seconds later. Directives change only how fast
   * the job runs, so a failure is not the job's.
   */
  static void addInBackground() {
    String file = System.getProperty(PROPERTY);
    if (file == null || file.isEmpty()) {
      return;
    }
    Thread t = new Thread(() -> {
      try {
        add(file);
      } catch (JMException | RuntimeException e) {
        // only speed is at stake
      }
    }, "loadprof-jit-directives");
    t.setDaemon(true);
    t.start();
  }

  /** Adds the directives in {@code file}; returns what the JVM answered. */
  static String add(String file) throws JMException {
    Object answer = ManagementFactory.getPlatformMBeanServer().invoke(
        new ObjectName("com.sun.management:type=DiagnosticCommand"), "compilerDirectivesAdd",
        new Object[] {new String[] {file}}, new String[] {String[].class.getName()});
    return String.valueOf(answer);
  }
}
