package dev.loadprof.archive;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The content of an index entry (index/night=N/host=H/RUN_ID@JOB): what its name says, the trace
 * it was archived from (so that a damaged run can be named with the command that repairs it),
 * and the SHA-256 of those lines, checked whenever the entry is read. Entries written before
 * entries had content are empty; they are read unchecked in archives of format 2.
 *
 * <pre>
 * loadprof-index-entry 1
 * run RUN_ID
 * job JOB
 * night YYYY-MM-DD
 * host HOST_PARTITION
 * source TRACE
 * sha256 HEX          (of the lines above, newlines included)
 * </pre>
 */
public record IndexEntry(String runId, String jobId, String night, String host, String source) {
  private static final String HEADER = "loadprof-index-entry 1";
  private static final String SHA = "sha256 ";

  public byte[] encode() {
    String body = HEADER + "\nrun " + runId + "\njob " + jobId + "\nnight " + night + "\nhost "
        + host + "\nsource " + source.replace('\n', ' ') + "\n";
    return (body + SHA + sha256Hex(body.getBytes(StandardCharsets.UTF_8)) + "\n")
        .getBytes(StandardCharsets.UTF_8);
  }

  /**
   * @return the entry, or null when it is empty (written before entries had content)
   * @throws IllegalArgumentException saying what is wrong, when it is damaged
   */
  public static IndexEntry decode(byte[] bytes) {
    if (bytes.length == 0) {
      return null;
    }
    String body = checkedBody(bytes, HEADER, "an index entry", "the index entry");
    String[] lines = body.split("\n", -1);
    if (lines.length != 7) {
      throw new IllegalArgumentException("index entry of " + (lines.length - 2) + " fields");
    }
    return new IndexEntry(field(lines[1], "run"), field(lines[2], "job"),
        field(lines[3], "night"), field(lines[4], "host"), field(lines[5], "source"));
  }

  /**
   * The lines of an index file above its "sha256 HEX" line, once that checksum is checked.
   *
   * @param header the file's first line
   * @throws IllegalArgumentException saying what is wrong, naming the file as {@code what}
   */
  static String checkedBody(byte[] bytes, String header, String kind, String what) {
    String text = new String(bytes, StandardCharsets.UTF_8);
    int sha = text.lastIndexOf("\n" + SHA);
    if (!text.startsWith(header + "\n") || sha < 0 || !text.endsWith("\n")) {
      throw new IllegalArgumentException("not " + kind + " of this loadprof (damaged, or"
          + " written by another version)");
    }
    String body = text.substring(0, sha + 1);
    String stated = text.substring(sha + 1 + SHA.length(), text.length() - 1);
    if (!stated.equals(sha256Hex(body.getBytes(StandardCharsets.UTF_8)))) {
      throw new IllegalArgumentException("checksum mismatch: " + what + " is damaged");
    }
    return body;
  }

  /** Null when the entry is what its name says, else what differs. */
  public String disagreement(String runIdFromName, String jobIdFromName, String nightFromPath,
      String hostFromPath) {
    if (!runId.equals(runIdFromName) || !jobId.equals(jobIdFromName)) {
      return "it names run " + runId + "@" + jobId + ", its file name " + runIdFromName + "@"
          + jobIdFromName;
    }
    if (!night.equals(nightFromPath) || !host.equals(hostFromPath)) {
      return "it names night " + night + " and host " + host + ", its directory night "
          + nightFromPath + " and host " + hostFromPath;
    }
    return null;
  }

  private static String field(String line, String name) {
    if (!line.startsWith(name + " ")) {
      throw new IllegalArgumentException("index entry without its " + name);
    }
    return line.substring(name.length() + 1);
  }

  /** Hex SHA-256 of bytes. */
  public static String sha256Hex(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("this JVM has no SHA-256", e);
    }
  }
}
