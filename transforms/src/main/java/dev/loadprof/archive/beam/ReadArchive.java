package dev.loadprof.archive.beam;

import dev.loadprof.archive.ArchiveConversions;
import dev.loadprof.archive.ArchiveCorruptException;
import dev.loadprof.archive.BlockFileRef;
import dev.loadprof.archive.NightRule;
import dev.loadprof.archive.RunSelection;
import dev.loadprof.beam.EventBlockCoder;
import dev.loadprof.beam.ParseTraces;
import dev.loadprof.beam.RunInfoCoder;
import dev.loadprof.model.EventBlock;
import dev.loadprof.model.RunInfo;
import dev.loadprof.schemas.BlockFileRecord;
import dev.loadprof.schemas.RunManifestRecord;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.SerializableCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.io.fs.ResourceId;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.transforms.Count;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.Distinct;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.GroupByKey;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.Reshuffle;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TupleTagList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads archives into what {@link ParseTraces} produces: blocks under {@link ParseTraces#BLOCKS}
 * and run infos under {@link ParseTraces#RUNS}, with the same coders, so the rest of the pipeline
 * cannot tell an archived run from a parsed one. Manifests are read first; then each block file
 * is streamed by one worker, the files of all runs spread over the workers.
 */
public final class ReadArchive extends PTransform<PBegin, PCollectionTuple> {
  /** A block file to read, with what its manifest says of its blocks. */
  private static final TupleTag<BlockFileRef> BLOCK_FILES = new TupleTag<>("blockFiles") {};
  private static final TupleTag<EventBlock> BLOCKS = new TupleTag<>("archivedBlocks") {};
  /** (manifest and its CPU count, a CPU a block of the run is of), for runs of CPU blocks. */
  private static final TupleTag<KV<String, Integer>> CPUS_OF_RUN = new TupleTag<>("cpus") {};

  private final List<String> archives;
  private final RunSelection selection;
  /** The kind of stored figures read instead of a run's blocks ({@link RunFigures}), or "". */
  private final String storedKind;

  /**
   * @param archives archive directories (any Beam filesystem)
   * @param selection the nights and hosts to read ({@link RunSelection#all()}: every run)
   */
  public ReadArchive(List<String> archives, RunSelection selection) {
    this(archives, selection, "");
  }

  /**
   * Reads the stored figures of {@code storedKind} of the runs that have them ({@link
   * #STORED_FIGURES}) instead of their blocks; the others' figures are to be stored where
   * {@link #FIGURES_TO_STORE} says.
   */
  public ReadArchive(List<String> archives, RunSelection selection, String storedKind) {
    this.archives = List.copyOf(archives);
    this.selection = selection;
    this.storedKind = storedKind;
  }

  /** (run id, its stored figures) of the runs whose blocks are not read. */
  public static final TupleTag<KV<String, java.io.Serializable>> STORED_FIGURES =
      new TupleTag<>("storedFigures") {};
  /** (run id, where its figures are to be stored) of the runs read from their blocks. */
  public static final TupleTag<KV<String, String>> FIGURES_TO_STORE =
      new TupleTag<>("figuresToStore") {};

  @Override
  public PCollectionTuple expand(PBegin begin) {
    PCollectionTuple manifests = begin
        .apply("List archives", Create.of(archives).withCoder(StringUtf8Coder.of()))
        .apply("List run manifests", ParDo.of(new ListManifestsFn(selection)))
        .setCoder(KvCoder.of(StringUtf8Coder.of(),
            SerializableCoder.of(ArchiveListing.ManifestRef.class)))
        // The runs' checks (manifest, block files) spread over the workers, many at once.
        .apply("Spread runs over workers", Reshuffle.viaRandomKey())
        // One trace under several run ids (the same fingerprint) is one run: counted once.
        .apply("Check and fingerprint runs", ParDo.of(new FingerprintFn()))
        .setCoder(KvCoder.of(StringUtf8Coder.of(), SerializableCoder.of(ManifestToRead.class)))
        .apply("Group runs by trace content", GroupByKey.create())
        .apply("Count each trace once", ParDo.of(new OncePerTraceFn()))
        .setCoder(SerializableCoder.of(ManifestToRead.class))
        .apply("Read run manifests", ParDo.of(new ReadManifestFn(storedKind))
            .withOutputTags(ParseTraces.RUNS, TupleTagList.of(BLOCK_FILES).and(STORED_FIGURES)
                .and(FIGURES_TO_STORE)));
    PCollection<RunInfo> runs = manifests.get(ParseTraces.RUNS).setCoder(RunInfoCoder.of());
    PCollectionTuple read = manifests.get(BLOCK_FILES)
        .setCoder(SerializableCoder.of(BlockFileRef.class))
        // Spread the files over workers; each file is streamed by one worker.
        .apply("Spread block files over workers", Reshuffle.viaRandomKey())
        .apply("Read block files", ParDo.of(new ReadBlocksFn())
            .withOutputTags(BLOCKS, TupleTagList.of(CPUS_OF_RUN)));
    PCollection<EventBlock> blocks = read.get(BLOCKS).setCoder(EventBlockCoder.of());
    // A manifest's CPU count is checked against the CPUs of all its run's blocks, which only
    // the whole job sees; a mismatch fails the job naming the manifest.
    read.get(CPUS_OF_RUN).setCoder(KvCoder.of(StringUtf8Coder.of(), VarIntCoder.of()))
        .apply("Distinct CPUs of each run", Distinct.create())
        .apply("Count CPUs of each run", Count.perKey())
        .apply("Check manifests' CPU counts", ParDo.of(new CheckCpuCountFn()));
    return PCollectionTuple.of(ParseTraces.BLOCKS, blocks).and(ParseTraces.RUNS, runs)
        .and(STORED_FIGURES, manifests.get(STORED_FIGURES).setCoder(KvCoder.of(
            StringUtf8Coder.of(), SerializableCoder.of(java.io.Serializable.class))))
        .and(FIGURES_TO_STORE, manifests.get(FIGURES_TO_STORE).setCoder(KvCoder.of(
            StringUtf8Coder.of(), StringUtf8Coder.of())));
  }

  /**
   * An archived run read without a runner: its info and its block files, and its night index's
   * group of runs whose stored figures are read and written together ({@link NightFigures};
   * null when no night index lists it, or no figures are read).
   */
  public record LocalRun(RunInfo info, List<BlockFileRef> files, Blocks blocks,
      NightFigures.Member member) {
    public LocalRun(RunInfo info, List<BlockFileRef> files, Blocks blocks) {
      this(info, files, blocks, null);
    }
  }

  /**
   * Which blocks an archived run's are: its archive, and the job and blocks' version its
   * manifest states (where figures computed from them are stored: {@link RunFigures}).
   */
  public record Blocks(String archive, String runId, String jobId, int blocksVersion,
      RunManifestRecord manifest, String manifestPath) {
    public ResourceId figures(String kind) {
      return RunFigures.file(archive, manifest.getNight(), runId, jobId, blocksVersion, kind);
    }
  }

  /**
   * The selected runs of {@code archives} as this transform reads them, without a runner: the
   * same listing, the same trace counted once under several run ids, the same manifests.
   */
  public static List<LocalRun> readRunsLocally(List<String> archives, RunSelection selection,
      Consumer<String> said) throws IOException {
    return readRunsLocally(archives, selection, said, "");
  }

  /**
   * The same, with the runs' stored figures of {@code figuresKind} (not "") gathered per night
   * index where they are ({@link NightFigures}): such a run's manifest is read from there, and
   * its figures are its {@link LocalRun#member}'s.
   */
  public static List<LocalRun> readRunsLocally(List<String> archives, RunSelection selection,
      Consumer<String> said, String figuresKind) throws IOException {
    List<KV<String, ArchiveListing.ManifestRef>> refs = new ArrayList<>();
    NightFigures.Packs packs = new NightFigures.Packs(figuresKind, said);
    for (String archive : archives) {
      for (ArchiveListing.ManifestRef ref : ArchiveListing.list(archive, selection, said,
          figuresKind.isEmpty() ? null : packs)) {
        refs.add(KV.of(archive, ref));
      }
    }
    Map<String, List<ManifestToRead>> byContent = new TreeMap<>();
    // What checking each run read, by manifest: each is used once (a path listed twice is read
    // again, so that no two runs share one RunInfo).
    Map<String, Fingerprinted> checked = new HashMap<>();
    Map<String, KV<String, ArchiveListing.ManifestRef>> refOf = new HashMap<>();
    List<Fingerprinted> all = LocalRunChecks.fingerprinted(refs, packs);
    for (int i = 0; i < all.size(); i++) {
      Fingerprinted f = all.get(i);
      if (f != null) {
        KV<String, ManifestToRead> keyed = f.keyed();
        byContent.computeIfAbsent(keyed.getKey(), k -> new ArrayList<>()).add(keyed.getValue());
        checked.putIfAbsent(keyed.getValue().path(), f);
        refOf.putIfAbsent(keyed.getValue().path(), refs.get(i));
      }
    }
    List<LocalRun> runs = new ArrayList<>();
    for (List<ManifestToRead> sameContent : byContent.values()) {
      for (ManifestToRead m : ManifestToRead.oncePerTrace(sameContent)) {
        List<BlockFileRef> files = new ArrayList<>();
        RunManifestRecord[] manifest = new RunManifestRecord[1];
        Fingerprinted f = checked.remove(m.path());
        RunInfo info = ReadManifestFn.read(m, files, manifest, f);
        Blocks blocks = new Blocks(m.archive(), info.runId, manifest[0].getJobId(),
            manifest[0].getBlocksVersion(), manifest[0], m.path());
        KV<String, ArchiveListing.ManifestRef> ref = f != null ? refOf.get(m.path()) : null;
        NightFigures.Member member = ref != null ? packs.member(ref) : null;
        LocalRun run = new LocalRun(info, files, blocks, member);
        if (member != null) {
          member.group().add(run);
        }
        runs.add(run);
      }
    }
    return runs;
  }

  /**
   * Streams a run's block files to {@code blocks}, then checks its manifest's CPU count against
   * the CPUs of its blocks, as the pipeline does. A file is checked as it is read (its size,
   * its schema, every block against the manifest: {@link ArchiveFiles#readBlocks}), not before
   * as well: on a store that would be three more requests a file. A file's bytes are taken
   * from {@code read} where they were read ahead ({@link BlockFilesAhead}), else it is opened.
   */
  public static void readBlocksLocally(LocalRun run, Map<String, byte[]> read,
      Consumer<EventBlock> blocks) {
    if (!run.files().isEmpty() || run.blocks().manifest().getBlockFiles().isEmpty()) {
      // as ReadManifestFn says it: not for a run counted as another (it has no files to read)
      ReadManifestFn.sayBlocksRead(run.blocks().manifestPath(), run.info().runId,
          run.blocks().manifest());
    }
    Map<String, Set<Integer>> cpusByManifest = new TreeMap<>();
    for (BlockFileRef file : run.files()) {
      Set<Integer> cpus = cpusByManifest.computeIfAbsent(file.cpuCountKey(), k -> new HashSet<>());
      ArchiveFiles.readBlocks(file, read.get(file.path()), block -> {
        if (!file.threadLanes()) {
          cpus.add(block.cpu);
        }
        blocks.accept(block);
      });
      if (file.threadLanes()) {
        cpusByManifest.remove(file.cpuCountKey());
      }
    }
    cpusByManifest.forEach((key, cpus) -> {
      String why = cpus.isEmpty() ? null : BlockFileRef.cpuCountMismatch(key, cpus.size());
      if (why != null) {
        throw new ArchiveCorruptException(BlockFileRef.manifestOf(key), why, null);
      }
    });
  }

  /**
   * Archive directory -> (archive directory, (manifest file, job of the index entry or "")) for
   * each selected run.
   */
  static final class ListManifestsFn
      extends DoFn<String, KV<String, ArchiveListing.ManifestRef>> {
    private final RunSelection selection;

    ListManifestsFn(RunSelection selection) {
      this.selection = selection;
    }

    @ProcessElement
    public void process(@Element String archive,
        OutputReceiver<KV<String, ArchiveListing.ManifestRef>> out) throws IOException {
      // What the listing finds to say, the CLI said before the job (ArchiveListing.Listing).
      for (ArchiveListing.ManifestRef ref : ArchiveListing.list(archive, selection)) {
        out.output(KV.of(archive, ref));
      }
    }
  }

  /**
   * A manifest to read: its archive, its path, its run id, and the run id of the same trace that
   * is counted instead of it ("" when it is the one counted).
   */
  record ManifestToRead(String archive, String path, String runId, String fingerprint,
      String sameAs) implements Serializable {
    ManifestToRead countedAs(String keptRunId) {
      return new ManifestToRead(archive, path, runId, fingerprint, keptRunId);
    }

    /**
     * The runs of one trace content: the first run id (in order) is counted, every other is
     * said to be the same trace.
     */
    static List<ManifestToRead> oncePerTrace(List<ManifestToRead> sameContent) {
      List<ManifestToRead> sorted = new ArrayList<>(sameContent);
      sorted.sort(Comparator.comparing(ManifestToRead::runId)
          .thenComparing(ManifestToRead::path));
      List<ManifestToRead> out = new ArrayList<>();
      for (ManifestToRead m : sorted) {
        out.add(out.isEmpty() ? m : m.countedAs(sorted.get(0).runId()));
      }
      return out;
    }
  }

  /**
   * (archive, manifest ref) -> (fingerprint, manifest to read), committed runs only; the
   * manifest of a run the client left to the job (its night index lists it) is checked here
   * ({@link RunChecks}), as the CLI checks the others; its block files as they are read.
   */
  static final class FingerprintFn
      extends DoFn<KV<String, ArchiveListing.ManifestRef>, KV<String, ManifestToRead>> {
    @ProcessElement
    public void process(@Element KV<String, ArchiveListing.ManifestRef> element,
        OutputReceiver<KV<String, ManifestToRead>> out) {
      KV<String, ManifestToRead> keyed = fingerprinted(element.getKey(), element.getValue());
      if (keyed != null) {
        out.output(keyed);
      }
    }

    /** (trace content key, manifest to read), or null for an index entry with no run to read. */
    static KV<String, ManifestToRead> fingerprinted(String archive,
        ArchiveListing.ManifestRef ref) {
      Fingerprinted f = checked(archive, ref);
      return f == null ? null : f.keyed();
    }

    /**
     * The same with what was read to check it: the manifest, and the run it converts into when
     * it was converted (else null), so that a job in this JVM reads neither again.
     */
    static Fingerprinted checked(String archive, ArchiveListing.ManifestRef ref) {
      return checked(archive, ref, null, null);
    }

    /**
     * The same from the manifest file's bytes as a night's figures file holds them ({@code
     * packed}, or null: read), the bytes read given to {@code read} (unless null).
     */
    static Fingerprinted checked(String archive, ArchiveListing.ManifestRef ref, byte[] packed,
        Consumer<byte[]> read) {
      String manifestPath = ref.path();
      RunManifestRecord manifest = RunChecks.manifest(archive, ref, packed, read);
      RunInfo run = null;
      // A run its night index lists, or whose job wrote a night index of its partition: the
      // client left it to the job. Any other the client checked, all but its manifest.
      boolean checkedHere = ref.indexed() != null || ref.nightIndexed();
      if (checkedHere && manifest != null) {
        run = RunChecks.converted(manifestPath, manifest);
      }
      if (manifest == null) {
        return null;
      }
      String fingerprint = manifest.getFingerprint();
      // No fingerprint (never written so): the run is its own.
      String key = fingerprint.isEmpty() ? "path:" + manifestPath : fingerprint;
      return new Fingerprinted(KV.of(key, new ManifestToRead(archive, manifestPath,
          manifest.getRunId(), fingerprint, "")), manifest, run);
    }
  }

  /** A run's fingerprint with the manifest read for it and its run when converted (or null). */
  record Fingerprinted(KV<String, ManifestToRead> keyed, RunManifestRecord manifest,
      RunInfo run) {}

  static final class OncePerTraceFn
      extends DoFn<KV<String, Iterable<ManifestToRead>>, ManifestToRead> {
    @ProcessElement
    public void process(@Element KV<String, Iterable<ManifestToRead>> element,
        OutputReceiver<ManifestToRead> out) {
      List<ManifestToRead> all = new ArrayList<>();
      element.getValue().forEach(all::add);
      ManifestToRead.oncePerTrace(all).forEach(out::output);
    }
  }

  static final class ReadManifestFn extends DoFn<ManifestToRead, RunInfo> {
    private static final Logger LOG = LoggerFactory.getLogger(ReadArchive.class);
    private final String storedKind;

    ReadManifestFn(String storedKind) {
      this.storedKind = storedKind;
    }

    @ProcessElement
    public void process(@Element ManifestToRead element, MultiOutputReceiver out) {
      List<BlockFileRef> files = new ArrayList<>();
      RunManifestRecord[] manifest = new RunManifestRecord[1];
      RunInfo run = read(element, files, manifest);
      if (!element.sameAs().isEmpty()) {
        Metrics.counter("loadprof", "archive_duplicate_runs").inc();
      } else {
        if (!RunFigures.readInstead(element.archive(), manifest[0], storedKind, files.isEmpty(),
            out.get(STORED_FIGURES), out.get(FIGURES_TO_STORE))) {
          // Each file is checked as it is read (ArchiveFiles.readBlocks), not before as well.
          files.forEach(f -> out.get(BLOCK_FILES).output(f));
          sayBlocksRead(element.path(), run.runId, manifest[0]);
        }
        // The same counters as parsing the trace, so the CLI behaves the same.
        for (Map.Entry<String, Long> e : run.health.counters().entrySet()) {
          Metrics.counter("loadprof", e.getKey()).inc(e.getValue());
        }
        Metrics.counter("loadprof", "runs").inc();
        if (run.isUnusable()) {
          Metrics.counter("loadprof", "unusable_runs").inc();
        }
      }
      out.get(ParseTraces.RUNS).output(run);
    }

    /**
     * The run of a manifest, its block files added to {@code files} (none for a run counted as
     * another), with the same log lines as parsing its trace; the manifest read is put in
     * {@code read[0]}.
     */
    static RunInfo read(ManifestToRead element, List<BlockFileRef> files,
        RunManifestRecord[] read) {
      return read(element, files, read, null);
    }

    /**
     * The same from what checking the run read already ({@code checked}, or null to read the
     * manifest): its manifest is not read again, nor converted again when it was.
     */
    static RunInfo read(ManifestToRead element, List<BlockFileRef> files,
        RunManifestRecord[] read, Fingerprinted checked) {
      String archive = element.archive();
      String manifestPath = element.path();
      RunManifestRecord manifest = checked != null ? checked.manifest()
          : ArchiveFiles.readManifest(FileSystems.matchNewResource(manifestPath, false));
      read[0] = manifest;
      RunInfo run = checked != null ? checked.run() : null;
      try {
        run = run != null ? run : ArchiveConversions.fromManifest(manifest);
      } catch (RuntimeException e) {
        throw new ArchiveCorruptException(manifestPath, "unreadable manifest (" + e.getMessage()
            + ")", e);
      }
      NightRule.decideFiled(run, manifest.getNight(), NightRule.today());
      if (!element.sameAs().isEmpty()) {
        // Said as a warning of the run, so compare and nightly leave it out and list it.
        String same = "run " + run.runId + " is the same trace as run " + element.sameAs()
            + " (identical content, " + element.fingerprint() + "): counted once, as run "
            + element.sameAs();
        LOG.warn(same);
        run.warnings.add(same);
        return run;
      }
      for (BlockFileRecord f : manifest.getBlockFiles()) {
        files.add(BlockFileRef.of(ArchiveLayout.resolve(archive, f.getPath()).toString(),
            f.getSizeBytes(), manifest, manifestPath));
      }
      for (String warning : run.warnings) {
        LOG.warn(warning);
      }
      return run;
    }

    /**
     * The log line of a run whose blocks are read: said when they are to be read, not for a
     * run whose stored figures are read instead (a nightly of thousands of past runs said a
     * line for each, though it read none of their blocks).
     */
    static void sayBlocksRead(String manifestPath, String runId, RunManifestRecord manifest) {
      LOG.info("{}: run {} from the archive ({} blocks in {} files)", manifestPath, runId,
          manifest.getBlockCount(), manifest.getBlockFiles().size());
    }
  }

  static final class ReadBlocksFn extends DoFn<BlockFileRef, EventBlock> {
    @ProcessElement
    public void process(@Element BlockFileRef file, MultiOutputReceiver out) {
      Set<Integer> cpus = new HashSet<>();
      ArchiveFiles.readBlocks(file, block -> {
        cpus.add(block.cpu);
        out.get(BLOCKS).output(block);
      });
      if (!file.threadLanes()) {
        for (int cpu : cpus) {
          out.get(CPUS_OF_RUN).output(KV.of(file.cpuCountKey(), cpu));
        }
      }
    }
  }

  static final class CheckCpuCountFn extends DoFn<KV<String, Long>, Void> {
    @ProcessElement
    public void process(@Element KV<String, Long> cpus) {
      String why = BlockFileRef.cpuCountMismatch(cpus.getKey(), cpus.getValue());
      if (why != null) {
        throw new ArchiveCorruptException(BlockFileRef.manifestOf(cpus.getKey()), why, null);
      }
    }
  }
}
