package dev.loadprof.cli;

import dev.loadprof.block.NotPerfScript;
import dev.loadprof.model.RunInfo;
import dev.loadprof.parse.LocalInputs;
import dev.loadprof.parse.RunIds;
import dev.loadprof.parse.TraceFiles;
import dev.loadprof.report.Printable;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Inputs refused before Beam's options registry or any pipeline is built, in plain Java, so
 * that a typo or a wrong file costs a fraction of a second instead of a job's start-up: a local
 * trace that does not exist or cannot be read, and inputs that are all local files without a
 * single perf record.
 */
final class EarlyRejection {
  private EarlyRejection() {}

  /** A local path (no glob, no URL, not a stream) that does not exist: the usual message. */
  static void missingLocalTraces(List<String> given) throws UsageException {
    for (String spec : given) {
      if (Inputs.isLocalLiteral(spec) && !TraceFiles.isStream(spec)
          && !Files.exists(Paths.get(spec))) {
        throw Inputs.noSuchTrace(spec);
      }
    }
  }

  /**
   * A local input that cannot be read as a trace (a character device such as /dev/zero, a
   * socket, a file this user may not read): one line that names it, at once, instead of a read
   * that never ends or fails late (exit 1). FIFOs are checked where they are opened.
   */
  static void unreadableLocalTraces(List<String> given) throws UsageException {
    for (String spec : given) {
      if (Inputs.isLocalLiteral(spec) && !spec.equals(TraceFiles.STDIN)
          && Files.exists(Paths.get(spec))) {
        String why = LocalInputs.whyUnreadable(spec);
        if (why != null) {
          throw new UsageException(why);
        }
      }
    }
  }

  /**
   * When every input is a local file that holds no perf sample or switch record, prints each
   * one's reason, as the job would, and returns exit 2; else returns null and the job runs
   * (a mix of good and bad traces is analyzed, and the bad ones reported, as before).
   */
  static Integer allNotPerfScript(List<String> given, long windowNs, PrintStream err) {
    List<String> files = new ArrayList<>();
    for (String spec : given) {
      if (!Inputs.isLocalLiteral(spec) || TraceFiles.isStream(spec)) {
        return null;
      }
      // The name the job would give the file (Beam's local match: absolute and normalized).
      files.add(Paths.get(spec).toAbsolutePath().normalize().toString());
    }
    Map<String, String> runIds = RunIds.of(files.stream().distinct().toList());
    List<RunInfo> rejected = new ArrayList<>();
    for (String name : files) {
      Path file = Path.of(name);
      Optional<RunInfo> run = NotPerfScript.check(file, runIds.get(name), name, windowNs);
      if (run.isEmpty()) {
        return null;
      }
      rejected.add(run.get());
    }
    for (RunInfo run : rejected) {
      err.println("loadprof: " + Printable.escape(run.unusableReason)); // names come from input
    }
    err.println("loadprof: " + rejected.size() + " of " + given.size() + " traces could not be"
        + " analyzed (reasons above); no job was run and no outputs were written");
    return ExitCode.BAD_INPUT;
  }
}
