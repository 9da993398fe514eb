package dev.loadprof.archive.beam;

import dev.loadprof.archive.ArchiveCorruptException;
import dev.loadprof.archive.IndexEntry;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.io.fs.MatchResult;

/**
 * An index entry of a selected run: its path and size as listed, what its name says, and the
 * trace its content names once it is read (null before).
 */
record IndexEntryRef(String path, long sizeBytes, int version, IndexEntryRef.Name name,
    String source) implements Serializable {
  /** Reads and checks the entry, unless read already (an empty one is damage from format 3). */
  void check(String archive) {
    if (source == null) {
      read(archive);
    }
  }

  /** The entry read and checked, with the trace it names ("" when an empty one names none). */
  IndexEntryRef read(String archive) {
    if (sizeBytes == 0 && version >= 3) {
      throw ArchiveCorruptException.ofRun(archive, name.runId, null, path,
          "the index entry is empty (damaged)", null);
    }
    IndexEntry content = sizeBytes > 0 ? content(archive, path, name) : null;
    return new IndexEntryRef(path, sizeBytes, version, name,
        content == null ? "" : content.source());
  }

  /** The index entries among the files listed under index/ (not the night indexes), unread. */
  static List<IndexEntryRef> listed(String root, List<MatchResult.Metadata> listed,
      int version) {
    List<IndexEntryRef> out = new ArrayList<>();
    for (MatchResult.Metadata m : listed) {
      String path = m.resourceId().toString();
      Name e = Name.of(path.substring(root.length()));
      if (e != null) {
        out.add(new IndexEntryRef(path, m.sizeBytes(), version, e, null));
      }
    }
    return out;
  }

  /** An index entry's path below index/: night=N/host=H/RUN_ID@JOB. */
  record Name(String night, String host, String runId, String jobId) implements Serializable {
    static Name of(String relative) {
      String[] parts = relative.split("/");
      if (parts.length != 3 || !parts[0].startsWith("night=") || !parts[1].startsWith("host=")) {
        return null;
      }
      int at = parts[2].lastIndexOf(ArchiveLayout.JOB_SEPARATOR);
      if (at <= 0) {
        return null;
      }
      return new Name(parts[0].substring(6), parts[1].substring(5), parts[2].substring(0, at),
          parts[2].substring(at + 1));
    }
  }

  /** Reads and checks an index entry's content against its name. */
  static IndexEntry content(String archive, String path, Name e) {
    byte[] bytes;
    try {
      bytes = StoreListing.read(path);
    } catch (IOException ex) {
      throw ArchiveCorruptException.ofRun(archive, e.runId, null, path,
          "the index entry cannot be read (" + ex + ")", ex);
    }
    IndexEntry content;
    try {
      content = IndexEntry.decode(bytes);
    } catch (IllegalArgumentException ex) {
      throw ArchiveCorruptException.ofRun(archive, e.runId, null, path, ex.getMessage(), ex);
    }
    String why = content == null ? null
        : content.disagreement(e.runId, e.jobId, e.night, e.host);
    if (why != null) {
      throw ArchiveCorruptException.ofRun(archive, e.runId, content.source(), path,
          "the index entry is damaged: " + why, null);
    }
    return content;
  }
}
