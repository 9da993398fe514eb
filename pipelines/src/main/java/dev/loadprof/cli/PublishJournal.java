package dev.loadprof.cli;

import dev.loadprof.beam.WriteReports;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.io.fs.EmptyMatchTreatment;
import org.apache.beam.sdk.io.fs.MatchResult;
import org.apache.beam.sdk.io.fs.MoveOptions.StandardMoveOptions;
import org.apache.beam.sdk.io.fs.ResolveOptions.StandardResolveOptions;
import org.apache.beam.sdk.io.fs.ResourceId;

/**
 * Publishing a job's staged outputs into --out, complete or not at all, whenever the process
 * is killed. Moving files one by one is not atomic, so the publish is a journal first: with the
 * whole new set staged inside --out, {@value #FILE} is written (to a temporary name, synced,
 * renamed) naming the staging directory, the files to move in and the old outputs to remove.
 * From that rename on the publish is decided; the moves and removes follow, then the staging
 * directory and the journal go. Each step can be done again (a move whose source is gone was
 * done, a remove of a missing file too), so the next job that claims --out finishes a journal a
 * killed job left, before anything else ({@link #recover}). Until then the journal marks --out
 * as being published: its set is the journal's, not what the directory shows. Other files in
 * --out are never touched.
 */
final class PublishJournal {
  static final String FILE = ".loadprof-publish";
  /** The journal before its rename: debris of a job killed before it decided to publish. */
  static final String TMP = WriteReports.TMP_PREFIX + "publish";
  /**
   * Test only: "K:halt" halts the JVM before step K (as kill -9 would), "K:pause:FILE" creates
   * FILE there and waits until the test deletes it (2 minutes at most).
   */
  static final String STEP_PROPERTY = "loadprof.test.publishStep";
  private static final String HEADER = "loadprof publish journal 1";

  private PublishJournal() {}

  /** One publish: who publishes, where from, what moves in and what goes. */
  record Plan(String by, String staging, List<String> moves, List<String> removes) {
    String text() {
      StringBuilder t = new StringBuilder(HEADER + "\nby " + by + "\nstaging " + staging + "\n");
      moves.forEach(m -> t.append("move ").append(m).append('\n'));
      removes.forEach(r -> t.append("remove ").append(r).append('\n'));
      return t.toString();
    }

    static Plan parse(String text) throws IOException {
      List<String> lines = text.lines().toList();
      if (lines.size() < 3 || !lines.get(0).equals(HEADER) || !lines.get(1).startsWith("by ")
          || !lines.get(2).startsWith("staging " + WriteReports.TMP_PREFIX)) {
        throw new IOException("not a journal this loadprof wrote");
      }
      List<String> moves = new ArrayList<>();
      List<String> removes = new ArrayList<>();
      for (String line : lines.subList(3, lines.size())) {
        String name = line.substring(line.indexOf(' ') + 1);
        if (name.isEmpty() || name.contains("/")) {
          throw new IOException("a bad line: " + line);
        }
        if (line.startsWith("move ")) {
          moves.add(name);
        } else if (line.startsWith("remove ")) {
          removes.add(name);
        } else {
          throw new IOException("a bad line: " + line);
        }
      }
      String staging = lines.get(2).substring(8);
      if (staging.contains("/") || staging.contains("..")) {
        throw new IOException("a bad staging directory: " + staging);
      }
      return new Plan(lines.get(1).substring(3), staging, moves, removes);
    }
  }

  /**
   * The publish of every file staged in {@code staging} (a directory in {@code dir}): they move
   * in, and each of {@code outputNames} in {@code dir} that the job did not write goes.
   */
  static Plan plan(ResourceId dir, ResourceId staging, Set<String> outputNames, String by)
      throws IOException {
    List<String> moves = new ArrayList<>();
    for (MatchResult.Metadata m : match(staging.resolve("*", StandardResolveOptions.RESOLVE_FILE))) {
      if (!m.resourceId().isDirectory()) {
        moves.add(m.resourceId().getFilename());
      }
    }
    List<String> removes = new ArrayList<>();
    for (String name : outputNames) {
      if (!moves.contains(name) && exists(file(dir, name))) {
        removes.add(name);
      }
    }
    String stagingName = staging.getFilename();
    return new Plan(by, stagingName, List.copyOf(moves), List.copyOf(removes));
  }

  /** Publishes {@code plan}: the journal, then its steps. */
  static void publish(ResourceId dir, Plan plan, Steps steps) throws IOException {
    ResourceId staging = staging(dir, plan);
    for (String name : plan.moves()) {
      sync(file(staging, name)); // durable before the journal that names them
    }
    sync(staging);
    steps.next();
    ResourceId tmp = file(dir, TMP);
    try (OutputStream o = Channels.newOutputStream(FileSystems.create(tmp, "text/plain"))) {
      o.write(plan.text().getBytes(StandardCharsets.UTF_8));
    }
    sync(tmp);
    steps.next();
    FileSystems.rename(List.of(tmp), List.of(file(dir, FILE)));
    sync(dir); // the decision: from here on the new set is published
    apply(dir, plan, steps);
  }

  /**
   * Finishes the publish that a job stopped in the middle left in {@code dir}; who that job
   * was, or null when there was none. Only the job that holds --out calls it.
   */
  static String recover(ResourceId dir) throws IOException {
    ResourceId journal = file(dir, FILE);
    if (!exists(journal)) {
      return null;
    }
    String text;
    try (InputStream in = Channels.newInputStream(FileSystems.open(journal))) {
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    Plan plan;
    try {
      plan = Plan.parse(text);
    } catch (IOException e) {
      throw new IOException(journal + " is damaged (" + e.getMessage() + "); delete it: the"
          + " outputs in " + dir + " may then be a mix of two jobs'");
    }
    apply(dir, plan, Steps.NONE);
    return plan.by();
  }

  /** Whether a publish into {@code dir} is under way or was cut short (its journal exists). */
  static boolean pending(ResourceId dir) throws IOException {
    return exists(file(dir, FILE));
  }

  /** The journal's steps, each done again harmlessly: moves, removes, staging, journal. */
  private static void apply(ResourceId dir, Plan plan, Steps steps) throws IOException {
    ResourceId staging = staging(dir, plan);
    List<String> lost = new ArrayList<>();
    for (String name : plan.moves()) {
      steps.next();
      ResourceId from = file(staging, name);
      ResourceId to = file(dir, name);
      if (exists(from)) {
        FileSystems.rename(List.of(from), List.of(to), StandardMoveOptions.IGNORE_MISSING_FILES);
      } else if (!exists(to)) {
        lost.add(name);
      }
    }
    for (String name : plan.removes()) {
      steps.next();
      FileSystems.delete(List.of(file(dir, name)), StandardMoveOptions.IGNORE_MISSING_FILES);
    }
    sync(dir);
    if (!lost.isEmpty()) {
      throw new IOException(lost + " of the outputs published into " + dir + " are neither there"
          + " nor in " + staging + " (deleted by hand?); the outputs there are incomplete");
    }
    steps.next();
    deleteStaging(staging);
    steps.next();
    FileSystems.delete(List.of(file(dir, FILE)), StandardMoveOptions.IGNORE_MISSING_FILES);
    sync(dir);
    steps.next();
  }

  private static ResourceId staging(ResourceId dir, Plan plan) {
    return dir.resolve(plan.staging(), StandardResolveOptions.RESOLVE_DIRECTORY);
  }

  static void deleteStaging(ResourceId staging) throws IOException {
    Path local = OutputDir.localPath(staging.toString());
    if (local == null) {
      FileSystems.delete(List.of(staging), StandardMoveOptions.IGNORE_MISSING_FILES);
    } else if (Files.exists(local)) {
      OutputDir.deleteTree(local);
    }
  }

  /** fsync of a local file or directory, so the order of the steps survives a power cut too. */
  private static void sync(ResourceId resource) throws IOException {
    Path local = OutputDir.localPath(resource.toString());
    if (local != null) {
      // Never the lock file: closing a descriptor of it would release this process's lock.
      try (FileChannel c = FileChannel.open(local, StandardOpenOption.READ)) {
        c.force(true);
      }
    }
  }

  private static ResourceId file(ResourceId dir, String name) {
    return dir.resolve(name, StandardResolveOptions.RESOLVE_FILE);
  }

  private static List<MatchResult.Metadata> match(ResourceId spec) throws IOException {
    return FileSystems.match(spec.toString(), EmptyMatchTreatment.ALLOW).metadata();
  }

  private static boolean exists(ResourceId file) throws IOException {
    Path local = OutputDir.localPath(file.toString());
    if (local != null) {
      return Files.exists(local);
    }
    return !match(file).isEmpty();
  }

  /** Where the publish is, for a test that stops it between two steps. */
  static final class Steps {
    static final Steps NONE = new Steps(null);

    private final String spec;
    private int step;

    private Steps(String spec) {
      this.spec = spec;
    }

    /** The steps of this publish, stopped where {@value #STEP_PROPERTY} says if set. */
    static Steps ofThisJob() {
      return new Steps(System.getProperty(STEP_PROPERTY));
    }

    /** Marks the point between two steps: halts or pauses there if the test asks. */
    void next() {
      int at = step++;
      if (spec == null || !spec.startsWith(at + ":")) {
        return;
      }
      String action = spec.substring(spec.indexOf(':') + 1);
      if (action.equals("halt")) {
        Runtime.getRuntime().halt(137); // as kill -9: no hook, no finally
      } else if (action.startsWith("pause:")) { // until the test deletes the file
        Path file = Path.of(action.substring(6));
        try {
          Files.writeString(file, "at publish step " + at + "\n");
          for (int i = 0; i < 6000 && Files.exists(file); i++) {
            Thread.sleep(20);
          }
        } catch (IOException | InterruptedException e) {
          throw new IllegalStateException(e);
        }
      }
    }
  }
}
