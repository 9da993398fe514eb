package dev.loadprof.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A job's claim of an --out in a JVM of its own (POSIX locks are per process), for the tests
 * that run two at once, kill one (-Dloadprof.test.publishStep) or stop one with SIGINT.
 *
 * <pre>
 *   hold DIR MILLIS|FILE      claims DIR and holds it MILLIS ms or until FILE is deleted;
 *                             exit 99 if another holder is inside
 *   publish DIR NAME=TEXT...  claims DIR and publishes the files NAME with TEXT into it
 * </pre>
 * Exit 2 with the message when DIR is in use, as the CLI; 130 when stopped.
 */
final class ClaimDriver {
  static final String INSIDE = "inside-the-claim";

  private ClaimDriver() {}

  public static void main(String[] args) throws Exception {
    int code;
    try {
      code = run(args);
    } catch (UsageException e) {
      System.err.println("loadprof: " + e.getMessage());
      code = ExitCode.BAD_INPUT;
    }
    System.out.flush();
    System.exit(code);
  }

  private static int run(String[] args) throws UsageException, IOException,
      InterruptedException {
    String out = args[1];
    try (OutputClaim claim = OutputClaim.take(out, System.err)) {
      if (args[0].equals("hold")) {
        return hold(Path.of(out), args[2]);
      }
      List<String> names = new ArrayList<>();
      Path staging = Path.of(claim.staging());
      Files.createDirectories(staging);
      for (int i = 2; i < args.length; i++) {
        String name = args[i].substring(0, args[i].indexOf('='));
        Files.writeString(staging.resolve(name), args[i].substring(name.length() + 1),
            StandardCharsets.UTF_8);
        names.add(name);
      }
      if (!claim.publish() || !claim.tellPublished(() -> System.out.println("Outputs in "
          + out + "/: " + String.join(", ", names)))) {
        return ExitCode.STOPPED;
      }
      return ExitCode.OK;
    }
  }

  /**
   * Holds the claim for {@code until} ms, or until the file {@code until} is deleted; a second
   * holder at the same time is caught by the marker file.
   */
  private static int hold(Path out, String until) throws IOException, InterruptedException {
    Path inside = out.resolve(INSIDE);
    try {
      Files.writeString(inside, ProcessHandle.current().pid() + "\n",
          java.nio.file.StandardOpenOption.CREATE_NEW, java.nio.file.StandardOpenOption.WRITE);
    } catch (FileAlreadyExistsException e) {
      System.err.println("OVERLAP: " + Files.readString(inside).strip() + " holds it too");
      return 99;
    }
    System.out.println("holding");
    System.out.flush();
    if (until.matches("\\d+")) {
      TimeUnit.MILLISECONDS.sleep(Long.parseLong(until));
    } else {
      for (int i = 0; i < 6000 && Files.exists(Path.of(until)); i++) {
        TimeUnit.MILLISECONDS.sleep(20);
      }
    }
    Files.delete(inside);
    return ExitCode.OK;
  }
}
