package dev.loadprof.cli;

import dev.loadprof.beam.WriteReports;
import dev.loadprof.compare.CompareOutputs;
import dev.loadprof.compare.NightlyOutputs;
import dev.loadprof.report.Reports;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.io.fs.ResolveOptions.StandardResolveOptions;
import org.apache.beam.sdk.io.fs.ResourceId;

/**
 * An --out held by one job from start to end: the job writes into a private staging directory
 * inside --out, the CLI reads the job's summary and exit code from there (no other job writes
 * it), and {@link #publish} then replaces every loadprof output in --out with the staged files
 * through a {@link PublishJournal}: complete or not at all, even when the process is killed.
 *
 * <p>A local --out is locked for the whole job ({@link OutputLock}): a second job on it fails
 * at once, naming the holder. Object stores (s3://, hdfs://, gs://) have no such lock: there a
 * job still reads only its own staged results, but two jobs publishing into one --out at once
 * can interleave; give each concurrent job its own --out.
 *
 * <p>A stopped job (Ctrl-C, SIGTERM) says what --out holds: the JVM runs the claim's shutdown
 * hook, which lets a publish under way finish, and a job not yet publishing never starts to.
 */
final class OutputClaim implements AutoCloseable {
  /** Staging directories start like the report writer's, so a killed job's is debris. */
  static final String STAGING_PREFIX = WriteReports.TMP_PREFIX + "job-";
  /** How long a stopped job waits for its publish to end (local ones take milliseconds). */
  static final Duration FINISH_ON_STOP = Duration.ofSeconds(20);

  /** The file names of every loadprof command's outputs (analyze, compare, nightly). */
  static final Set<String> ALL_OUTPUT_NAMES = allOutputNames();

  /** RUNNING -> PUBLISHING -> PUBLISHED -> TOLD, or FAILED; STOPPED by the hook; CLOSED. */
  private enum State { RUNNING, PUBLISHING, PUBLISHED, TOLD, FAILED, STOPPED, CLOSED }

  private final String out;
  private final ResourceId dir;
  private final ResourceId staging;
  private final OutputLock lock;
  /** This job, as the lock file and the journal name it: "pid N (COMMAND, started T)". */
  private final String by;
  private final PrintStream err;
  private final ReentrantLock guard = new ReentrantLock();
  private final Condition changed = guard.newCondition();
  /** The job said its outputs are there (TOLD), whatever state came after. */
  private boolean told;
  private final Thread onStop = new Thread(this::stopped, "loadprof-stopped-job");
  private State state = State.RUNNING;
  private boolean cleanedUp;

  private OutputClaim(String out, ResourceId dir, ResourceId staging, OutputLock lock,
      String by, PrintStream err) {
    this.out = out;
    this.by = by;
    this.dir = dir;
    this.staging = staging;
    this.lock = lock;
    this.err = err;
  }

  /**
   * Checks --out ({@link OutputDir#checkWritable}), locks it when local, finishes a publish
   * that a stopped job left (said in one line on {@code err}), removes killed jobs' debris and
   * opens a fresh staging directory.
   *
   * @throws UsageException when --out cannot be written or another job holds it
   */
  static OutputClaim take(String out, PrintStream err) throws UsageException {
    OutputDir.checkWritable(out);
    String by = OutputLock.describeThisJob();
    Path local = OutputDir.localPath(out);
    OutputLock lock = null;
    if (local != null) {
      try {
        Files.createDirectories(local); // the job writes into it now
      } catch (IOException e) {
        throw new UsageException(OutputDir.notWritableLine(out, local, e));
      }
      lock = OutputLock.take(out, local, by);
    } else {
      org.slf4j.LoggerFactory.getLogger(OutputClaim.class).warn("--out {} is not on a local"
          + " disk, where loadprof cannot lock it: two jobs publishing into it at once may"
          + " interleave their files; give each concurrent job its own --out", out);
    }
    try {
      ResourceId dir = FileSystems.matchNewResource(out, true);
      finishStoppedPublish(out, dir, err);
      OutputDir.removeDebris(out); // only now: a stopped publish's staging is not debris
      ResourceId staging = dir.resolve(STAGING_PREFIX + UUID.randomUUID(),
          StandardResolveOptions.RESOLVE_DIRECTORY);
      OutputClaim claim = new OutputClaim(out, dir, staging, lock, by, err);
      Runtime.getRuntime().addShutdownHook(claim.onStop);
      return claim;
    } catch (UsageException | RuntimeException e) {
      if (lock != null) {
        lock.release();
      }
      throw e;
    }
  }

  private static void finishStoppedPublish(String out, ResourceId dir, PrintStream err)
      throws UsageException {
    try {
      String by = PublishJournal.recover(dir);
      if (by != null) {
        err.println("loadprof: " + out + " was left half-published by " + by + "; finished"
            + " that publish (" + out + " holds that job's outputs until this job replaces"
            + " them)");
      }
    } catch (IOException e) {
      throw new UsageException("--out " + out + " holds a publish that a stopped job left and"
          + " that cannot be finished: " + e.getMessage());
    }
  }

  /** Where the job writes its outputs: private to this job. */
  String staging() {
    return staging.toString();
  }

  /** --out as given, for messages. */
  String out() {
    return out;
  }

  /**
   * Moves the staged outputs into --out, where every loadprof output (of any command) that
   * this job did not write goes; other files in --out are never touched. False, with nothing
   * changed, when the job is being stopped: its shutdown hook tells the user.
   */
  boolean publish() throws IOException {
    PublishJournal.Steps steps = PublishJournal.Steps.ofThisJob();
    steps.next(); // a test stops the job right before the publish here
    guard.lock();
    try {
      if (state != State.RUNNING) {
        return false;
      }
      state = State.PUBLISHING;
    } finally {
      guard.unlock();
    }
    State end = State.FAILED;
    try {
      PublishJournal.publish(dir, PublishJournal.plan(dir, staging, ALL_OUTPUT_NAMES, by),
          steps);
      end = State.PUBLISHED;
      return true;
    } finally {
      moveTo(end);
    }
  }

  /**
   * Runs {@code tell} (the lines that say the outputs are there) when the publish is done and
   * the job is not being stopped; false when it did not run.
   */
  boolean tellPublished(Runnable tell) {
    guard.lock();
    try {
      if (state != State.PUBLISHED) {
        return false;
      }
      tell.run();
      told = true;
      state = State.TOLD;
      changed.signalAll();
      return true;
    } finally {
      guard.unlock();
    }
  }

  /** Deletes what is left of the staging directory and releases the lock. */
  @Override
  public void close() {
    try {
      Runtime.getRuntime().removeShutdownHook(onStop);
    } catch (IllegalStateException e) {
      // The JVM is stopping: the hook cleans up.
    }
    guard.lock();
    try {
      cleanUp();
      state = State.CLOSED;
    } finally {
      guard.unlock();
    }
  }

  private void moveTo(State next) {
    guard.lock();
    try {
      if (state != State.STOPPED) { // stopped: nothing more is said
        state = next;
      }
      changed.signalAll();
    } finally {
      guard.unlock();
    }
  }

  /**
   * The shutdown hook: says what --out holds when the JVM is stopped (Ctrl-C, SIGTERM) during
   * the job. A publish under way may finish (it is short), and then its outputs are there; a
   * job stopped before it never starts it, and --out keeps the previous outputs.
   */
  private void stopped() {
    try {
      if (!guard.tryLock(FINISH_ON_STOP.toMillis(), TimeUnit.MILLISECONDS)) {
        return; // printing stuck on a full pipe; the kernel releases the lock anyway
      }
    } catch (InterruptedException e) {
      return;
    }
    try {
      long left = FINISH_ON_STOP.toNanos();
      while ((state == State.PUBLISHING || state == State.PUBLISHED) && left > 0) {
        left = changed.awaitNanos(left);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // say what is known now
    }
    try {
      String said = switch (state) {
        case RUNNING -> "stopped: the outputs were not written; " + out + " holds what it held"
            + " before";
        case PUBLISHING -> "stopped while publishing into " + out + ": it holds what it held"
            + " before, or this job's outputs once the next loadprof job on it has finished the"
            + " publish (" + PublishJournal.FILE + ")";
        case PUBLISHED -> "stopped: the outputs were published in " + out + "/ (the summary"
            + " was not printed)";
        case TOLD -> "stopped after the outputs were published in " + out + "/";
        // The job may close its claim between the TOLD signal and this hook's turn at the lock.
        case CLOSED -> told ? "stopped after the outputs were published in " + out + "/" : null;
        default -> null; // failed (said by the job)
      };
      if (said != null) {
        err.println("loadprof: " + said);
        err.flush();
      }
      if (state != State.PUBLISHING) { // a publish still running needs its staging directory
        cleanUp();
      }
      state = State.STOPPED;
    } finally {
      guard.unlock();
    }
  }

  /** Once: the staging directory unless a journal still needs it, then the lock. */
  private void cleanUp() {
    if (cleanedUp) {
      return;
    }
    cleanedUp = true;
    try {
      if (!PublishJournal.pending(dir)) {
        PublishJournal.deleteStaging(staging);
      }
    } catch (IOException | RuntimeException e) {
      // A leftover staging directory is debris that the next job on this --out removes.
    } finally {
      if (lock != null) {
        lock.release();
      }
    }
  }

  private static Set<String> allOutputNames() {
    Set<String> names = new LinkedHashSet<>();
    Reports.ALL.forEach(r -> names.add(r.fileName()));
    CompareOutputs.WRITERS.forEach(w -> names.add(w.fileName()));
    NightlyOutputs.WRITERS.forEach(w -> names.add(w.fileName()));
    return Set.copyOf(names);
  }
}
