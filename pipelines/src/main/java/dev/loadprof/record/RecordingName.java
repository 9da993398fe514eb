package dev.loadprof.record;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * The file a recording of {@code loadprof record} is kept in: {@code NAME.data} in the output
 * directory, NAME being {@code --name} or the program and the UTC time the recording started
 * ({@code prog-20261127-224530}). The file name is the run id, and its date the night
 * (dev.loadprof.archive.NightRule), so repeated recordings are distinct runs that compare and
 * nightly take as they are, and glob as {@code prog-*.data}. A name already taken is never
 * overwritten: the next free one of NAME-2, NAME-3, ... is used.
 */
final class RecordingName {
  /** Sorts like the time it stands for, and is a date Nights reads (YYYYMMDD). */
  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);

  private RecordingName() {}

  /**
   * The stem of the recording's file name: {@code name} when given (a trailing .data dropped),
   * else the program's file name and the UTC time {@code start}.
   *
   * @throws IllegalArgumentException when {@code name} is not a plain file name, with why
   */
  static String stem(String program, String name, Instant start) {
    if (name == null) {
      return Path.of(program).getFileName() + "-" + STAMP.format(start);
    }
    String stem = name.endsWith(".data") ? name.substring(0, name.length() - 5) : name;
    if (stem.isBlank() || stem.contains("/") || stem.equals(".") || stem.equals("..")
        || stem.startsWith("-")) {
      throw new IllegalArgumentException("--name takes a file name without directories (the"
          + " recording is kept in --out as NAME.data), got '" + name + "'");
    }
    return stem;
  }

  /**
   * Creates {@code dir/STEM.data} empty, or the first free {@code dir/STEM-N.data}, and returns
   * it: creating it is what claims the name, so two recordings started at once get two files.
   * perf record writes into an empty file in place (it moves only a non-empty one aside to
   * .old).
   */
  static Path claim(Path dir, String stem) throws IOException {
    Files.createDirectories(dir);
    for (int n = 1; ; n++) {
      Path data = dir.resolve((n == 1 ? stem : stem + "-" + n) + ".data");
      try {
        return Files.createFile(data);
      } catch (FileAlreadyExistsException e) {
        // taken: a recording of the same second, or a name given twice; try the next
      }
    }
  }
}
