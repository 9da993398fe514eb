package dev.loadprof.pipelines;

import java.io.IOException;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.beam.sdk.io.FileSystem;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.io.fs.CreateOptions;
import org.apache.beam.sdk.io.fs.MatchResult;
import org.apache.beam.sdk.io.fs.MoveOptions;
import org.apache.beam.sdk.io.fs.ResolveOptions;
import org.apache.beam.sdk.io.fs.ResourceId;
import org.apache.beam.sdk.options.PipelineOptions;

/**
 * A store for tests that counts the requests made to it: "counting:///PATH" is the local file
 * PATH, and every call Beam's FileSystems make of a store (a listing or a file's metadata, an
 * open, a create, a copy, a rename, a delete) counts as one request of its kind, as an object
 * store would be asked. A listing counts one request per page of {@link #pageSize} names found
 * (an object store pages it per 1000 keys; a test sets fewer to see a listing grow).
 */
public final class CountingFileSystem extends FileSystem<CountingFileSystem.Id> {
  public static final String SCHEME = "counting";
  private static final Map<String, AtomicLong> COUNTS = new ConcurrentHashMap<>();
  private static final List<String> LISTED = new java.util.concurrent.CopyOnWriteArrayList<>();
  private static final List<String> OPENED = new java.util.concurrent.CopyOnWriteArrayList<>();
  private static volatile int pageSize = 1000;
  private static volatile String hiddenFromListings;

  /**
   * Files whose path ends with {@code suffix} are left out of listings (globs), still found
   * alone: as a file written while the listing passed it. Null: none.
   */
  public static void hideFromListings(String suffix) {
    hiddenFromListings = suffix;
  }

  /** Names per listing page, as a store pages its listings (S3: 1000). */
  public static void pageSize(int names) {
    pageSize = names;
  }

  /** The globs listed since the last {@link #reset}, in order. */
  public static List<String> listed() {
    return List.copyOf(LISTED);
  }

  /** The files opened (GET) since the last {@link #reset}, in order. */
  public static List<String> opened() {
    return List.copyOf(OPENED);
  }

  /** Requests by kind: LIST (a glob), HEAD (one file's metadata), GET, PUT, COPY, DELETE. */
  public static Map<String, Long> counts() {
    Map<String, Long> out = new java.util.TreeMap<>();
    COUNTS.forEach((k, v) -> out.put(k, v.get()));
    return out;
  }

  public static long total() {
    return COUNTS.values().stream().mapToLong(AtomicLong::get).sum();
  }

  public static void reset() {
    COUNTS.clear();
    LISTED.clear();
    OPENED.clear();
  }

  private static void count(String kind) {
    COUNTS.computeIfAbsent(kind, k -> new AtomicLong()).incrementAndGet();
  }

  /** The counting path of a local file or directory. */
  public static String of(java.nio.file.Path local) {
    return SCHEME + "://" + local.toAbsolutePath();
  }

  private static String local(String spec) {
    return spec.startsWith(SCHEME + "://") ? spec.substring(SCHEME.length() + 3) : spec;
  }

  @Override
  protected List<MatchResult> match(List<String> specs) throws IOException {
    List<MatchResult> out = new ArrayList<>();
    for (String spec : specs) {
      String local = local(spec);
      boolean glob = local.chars().anyMatch(c -> "*?[{".indexOf(c) >= 0);
      MatchResult m = FileSystems.match(local);
      if (!glob) {
        count("HEAD");
      } else {
        LISTED.add(spec);
        int found = m.status() == MatchResult.Status.OK ? m.metadata().size() : 0;
        for (int page = 0; page < Math.max(1, (found + pageSize - 1) / pageSize); page++) {
          count("LIST");
        }
      }
      if (m.status() != MatchResult.Status.OK) {
        out.add(m);
        continue;
      }
      List<MatchResult.Metadata> metadata = new ArrayList<>();
      for (MatchResult.Metadata md : m.metadata()) {
        String hidden = hiddenFromListings;
        if (glob && hidden != null && md.resourceId().toString().endsWith(hidden)) {
          continue;
        }
        metadata.add(MatchResult.Metadata.builder().setResourceId(new Id(md.resourceId()))
            .setSizeBytes(md.sizeBytes()).setIsReadSeekEfficient(md.isReadSeekEfficient())
            .setLastModifiedMillis(md.lastModifiedMillis()).build());
      }
      out.add(MatchResult.create(MatchResult.Status.OK, metadata));
    }
    return out;
  }

  @Override
  protected WritableByteChannel create(Id resourceId, CreateOptions createOptions)
      throws IOException {
    count("PUT");
    return FileSystems.create(resourceId.local, createOptions);
  }

  @Override
  protected ReadableByteChannel open(Id resourceId) throws IOException {
    count("GET");
    OPENED.add(resourceId.toString());
    return FileSystems.open(resourceId.local);
  }

  @Override
  protected void copy(List<Id> src, List<Id> dest) throws IOException {
    src.forEach(s -> count("COPY"));
    FileSystems.copy(locals(src), locals(dest));
  }

  @Override
  protected void rename(List<Id> src, List<Id> dest, MoveOptions... options)
      throws IOException {
    src.forEach(s -> count("COPY"));
    FileSystems.rename(locals(src), locals(dest), options);
  }

  @Override
  protected void delete(java.util.Collection<Id> resourceIds) throws IOException {
    resourceIds.forEach(s -> count("DELETE"));
    FileSystems.delete(locals(resourceIds));
  }

  private static List<ResourceId> locals(java.util.Collection<Id> ids) {
    return ids.stream().map(i -> i.local).toList();
  }

  @Override
  protected Id matchNewResource(String singleResourceSpec, boolean isDirectory) {
    return new Id(FileSystems.matchNewResource(local(singleResourceSpec), isDirectory));
  }

  @Override
  protected String getScheme() {
    return SCHEME;
  }

  /** A counting path: a local resource under another scheme. */
  public static final class Id implements ResourceId {
    final ResourceId local;

    Id(ResourceId local) {
      this.local = local;
    }

    @Override
    public ResourceId resolve(String other, ResolveOptions options) {
      return new Id(local.resolve(other, options));
    }

    @Override
    public ResourceId getCurrentDirectory() {
      return new Id(local.getCurrentDirectory());
    }

    @Override
    public String getScheme() {
      return SCHEME;
    }

    @Override
    public String getFilename() {
      return local.getFilename();
    }

    @Override
    public boolean isDirectory() {
      return local.isDirectory();
    }

    @Override
    public String toString() {
      return SCHEME + "://" + local;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Id other && other.local.equals(local);
    }

    @Override
    public int hashCode() {
      return local.hashCode();
    }
  }

  /** Registers the scheme with Beam's FileSystems (ServiceLoader). */
  public static final class Registrar implements org.apache.beam.sdk.io.FileSystemRegistrar {
    @Override
    public Iterable<FileSystem<?>> fromOptions(PipelineOptions options) {
      return List.of(new CountingFileSystem());
    }
  }
}
