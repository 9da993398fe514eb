package dev.loadprof.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.cli.ClientSelection;
import dev.loadprof.pipelines.ArchiveCliTest.Run;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The requests the client makes before a job over an archive's nights, counted on a counting
 * store: with night indexes they depend on the nights and hosts selected, not on the runs (the
 * same count for 4 and for 16 runs a partition); without them (an archive written before), they
 * grow with the runs, and the console says so once.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClientRequestsTest {
  private static final List<String> NIGHTS = List.of("2026-11-01", "2026-11-02", "2026-11-03");
  private static final List<String> HOSTS = List.of("web1", "web2");

  @TempDir Path tmp;

  @BeforeAll
  void registerTheCountingStore() {
    FileSystems.setDefaultPipelineOptions(PipelineOptionsFactory.create());
  }

  private Path archiveWith(String name, int runsPer, boolean nightIndexes) throws IOException {
    Path archive = tmp.resolve(name);
    Run run = ArchiveCliTest.cli("archive", "--out", archive.toString(), "--night",
        "2026-10-01", E2e.trace("mixed").toString());
    assertEquals(0, run.code(), run.err());
    if (!nightIndexes) { // as an archive written before night indexes
      try (Stream<Path> walk = Files.walk(archive.resolve("index"))) {
        for (Path p : walk.filter(p -> p.getFileName().toString().startsWith("@")).toList()) {
          Files.delete(p);
        }
      }
    }
    SyntheticArchive.addCopies(archive, "mixed", NIGHTS, HOSTS, runsPer, "synthjob",
        nightIndexes);
    return archive;
  }

  record Counted(long requests, List<String> runs, String err) {}

  private static Counted selectCounting(Path archive, String nights, String hosts) {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    CountingFileSystem.reset();
    List<String> runs = ClientSelection.select(List.of(CountingFileSystem.of(archive)), nights,
        hosts, new PrintStream(err, true, StandardCharsets.UTF_8));
    long requests = CountingFileSystem.total();
    System.out.println(archive.getFileName() + " --nights " + nights + " --hosts " + hosts
        + ": " + runs.size() + " runs, " + CountingFileSystem.counts());
    return new Counted(requests, runs, err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void theClientsRequestsDependOnNightsAndHostsNotOnRuns() throws IOException {
    Path small = archiveWith("small", 2, true);
    Path big = archiveWith("big", 8, true);
    for (String[] sel : new String[][] {{"2026-11-02", null}, {"2026-11-01..2026-11-03", null},
        {"2026-11-01..2026-11-03", "web1"}}) {
      Counted s = selectCounting(small, sel[0], sel[1]);
      Counted b = selectCounting(big, sel[0], sel[1]);
      assertEquals(4 * s.runs().size(), b.runs().size());
      assertEquals(s.requests(), b.requests(), "the same requests for 4x the runs");
      int nights = sel[0].contains("..") ? 3 : 1;
      // the marker twice, the index once a night; no night index (the job's workers read
      // them), so the hosts cost nothing either: a night of 10,000 hosts is its LIST pages
      assertTrue(b.requests() <= 2 + nights, b.requests() + " requests");
      assertTrue(!b.err().contains("in no night index"), b.err());
    }
  }

  /**
   * The whole archive (nightly's default): the client reads no night index and no run of a
   * night index's partition either (the job reads the night indexes, and a nightly's from its
   * night figures files): its requests are the listings', whatever the nights and runs.
   */
  @Test
  void theWholeArchivesClientReadsNoNightIndexNorRun() throws IOException {
    Counted s = selectCounting(archiveWith("whole-small", 2, true), null, null);
    Counted b = selectCounting(archiveWith("whole-big", 8, true), null, null);
    assertEquals(4 * (s.runs().size() - 1) + 1, b.runs().size()); // the first night's run too
    assertEquals(s.requests(), b.requests(), "the same requests for 4x the runs");
    // the marker twice, the index's listing and runs/'s
    assertTrue(b.requests() <= 4, b.requests() + " requests");
  }

  /**
   * The whole archive's runs/ is listed while its index is (ListingAhead): a run committed
   * meanwhile can have its entry listed and not its manifest. Its manifest is then looked for
   * alone, and the run is selected, not refused as missing its manifest; the same runs as with
   * its manifest listed, one request more.
   */
  @Test
  void aManifestTheListingMissedWhileTheIndexWasListedIsLookedForAlone() throws IOException {
    Path archive = archiveWith("late-manifest", 2, true);
    Counted listed = selectCounting(archive, null, null);
    String late = listed.runs().get(listed.runs().size() - 1);
    CountingFileSystem.hideFromListings("/runs/" + late + ".avro");
    Counted missed;
    try {
      missed = selectCounting(archive, null, null);
    } finally {
      CountingFileSystem.hideFromListings(null);
    }
    assertEquals(listed.runs(), missed.runs(), missed.err());
    assertEquals(listed.requests() + 1, missed.requests(), "its manifest looked for alone");
  }

  /**
   * A job in the CLI's JVM lists from what its client listed ({@code ClientListings}): each of
   * the archive's listings (the index's, runs/'s) is made once a command, where the job used to
   * make them again (on a store, a request per 1,000 names). The same run ids either way.
   */
  @Test
  void aJobInTheClientsJvmListsTheArchiveOnce() throws IOException {
    Path archive = archiveWith("listed-once", 2, true);
    String counted = CountingFileSystem.of(archive);
    for (List<String> command : List.of(List.of("analyze"), List.of("analyze", "--nights",
        "2026-11-02"), List.of("nightly"))) {
      CountingFileSystem.reset();
      List<String> args = new java.util.ArrayList<>(command);
      args.addAll(List.of("--out", tmp.resolve("once-" + String.join("-", command)).toString(),
          counted));
      Run run = ArchiveCliTest.cli(args.toArray(String[]::new));
      assertEquals(0, run.code(), run.err());
      List<String> listed = CountingFileSystem.listed();
      assertEquals(listed.stream().distinct().toList(), listed, command + " listed " + listed);
      assertTrue(listed.stream().anyMatch(g -> g.contains("/index/")), listed.toString());
    }
  }

  /**
   * A nightly's new night, none of whose runs has figures stored, costs its figures one listing
   * of the night's, not a request per run (a figures file looked for and not there); a night
   * without its night figures file has its runs' figures read one by one, as listed.
   */
  @Test
  void aNewNightsStoredFiguresAreListedOnceNotAskedForRunByRun() throws IOException {
    Path archive = archiveWith("new-night", 2, true); // 1 + 3 nights x 2 hosts x 2 runs
    String counted = CountingFileSystem.of(archive);
    Run cold = ArchiveCliTest.cli("nightly", "--out", tmp.resolve("nn-cold").toString(), counted);
    assertEquals(0, cold.code(), cold.err());
    SyntheticArchive.addCopies(archive, "mixed", List.of("2026-11-04"), HOSTS, 3, "synthjob2",
        true);
    CountingFileSystem.reset();
    Run warm = ArchiveCliTest.cli("nightly", "--out", tmp.resolve("nn-warm").toString(), counted);
    assertEquals(0, warm.code(), warm.err());
    assertThat(warm.err(), containsString("figures of 13 archived runs read from the archive, 6"
        + " computed from their blocks (6 stored for the next nights)"));
    assertEquals(List.of(), CountingFileSystem.opened().stream()
        .filter(p -> p.contains("/figures/")).toList(), "no run's figures asked for");
    assertEquals(1, CountingFileSystem.listed().stream()
        .filter(g -> g.contains("/figures/night=2026-11-04/")).count(), CountingFileSystem.listed()
        .toString());
    deleteTree(archive.resolve("night-figures"));
    CountingFileSystem.reset();
    Run unpacked = ArchiveCliTest.cli("nightly", "--out", tmp.resolve("nn-unpacked").toString(),
        counted);
    assertEquals(0, unpacked.code(), unpacked.err());
    assertThat(unpacked.err(), containsString("figures of 19 archived runs read from the archive,"
        + " 0 computed"));
    assertEquals(19, CountingFileSystem.opened().stream()
        .filter(p -> p.contains("/figures/night=")).count(), "each run's figures, as listed");
    assertEquals(5, CountingFileSystem.listed().stream()
        .filter(g -> g.contains("/figures/night=")).count(), "one listing a night");
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  /**
   * The night indexes hold what the client checks of an --event or --window asked for: then,
   * and only then, it reads them, and a run archived otherwise is refused before the job.
   */
  @Test
  void anEventOrWindowAskedForIsCheckedInTheNightIndexesBeforeTheJob() throws IOException {
    Path archive = archiveWith("asked", 1, true);
    Run event = ArchiveCliTest.cli("analyze", "--out", tmp.resolve("e-out").toString(),
        "--nights", "2026-11-02", "--event", "cycles", archive.toString());
    assertEquals(2, event.code(), event.err());
    assertThat(event.err(), containsString("archived with the sampling event cpu-clock"));
    Run window = ArchiveCliTest.cli("analyze", "--out", tmp.resolve("w-out").toString(),
        "--nights", "2026-11-02", "--window", "250ms", archive.toString());
    assertEquals(2, window.code(), window.err());
    assertThat(window.err(), containsString("archived with --window 1000ms"));
    assertTrue(!Files.exists(tmp.resolve("e-out")) && !Files.exists(tmp.resolve("w-out")));
  }

  /**
   * A night's selection costs the same requests in an archive of 1 night as of 6, listing
   * pages included (pages of 4 names here, so that a listing of the whole runs/ would grow):
   * with night indexes the client never lists runs/.
   */
  @Test
  void aNightsRequestsDoNotGrowWithTheArchive() throws IOException {
    List<String> sixNights = List.of("2026-11-01", "2026-11-02", "2026-11-03", "2026-11-04",
        "2026-11-05", "2026-11-06");
    Map<Integer, Map<String, Long>> counts = new TreeMap<>();
    CountingFileSystem.pageSize(4);
    try {
      for (List<String> nights : List.of(List.of("2026-11-02"), sixNights)) {
        Path archive = tmp.resolve("nights-" + nights.size());
        Run run = ArchiveCliTest.cli("archive", "--out", archive.toString(), "--night",
            "2026-10-01", E2e.trace("mixed").toString());
        assertEquals(0, run.code(), run.err());
        SyntheticArchive.addCopies(archive, "mixed", nights, HOSTS, 2, "synthjob", true);
        Counted c = selectCounting(archive, "2026-11-02", null);
        assertEquals(4, c.runs().size(), c.runs().toString());
        for (String glob : CountingFileSystem.listed()) {
          assertTrue(!glob.contains("/runs/"), "runs/ listed: " + glob);
        }
        counts.put(nights.size(), CountingFileSystem.counts());
      }
    } finally {
      CountingFileSystem.pageSize(1000);
    }
    assertEquals(counts.get(1), counts.get(6), "the same requests in an archive 6x as big");
  }

  @Test
  void theArchiveJobWritesTheNightIndexTheClientReads() throws IOException {
    Path archive = archiveWith("written", 1, true);
    try (Stream<Path> files = Files.list(archive.resolve("index/night=2026-10-01/host=_"))) {
      assertEquals(1, files.filter(p -> p.getFileName().toString().startsWith("@")).count());
    }
    Counted c = selectCounting(archive, "2026-10-01", null);
    assertEquals(List.of("mixed"), c.runs());
    assertTrue(!c.err().contains("in no night index"), c.err());
    // the marker (HEAD, GET), the night's index (LIST); not its night index (the job reads
    // it), nor runs/
    assertEquals(3, c.requests(), CountingFileSystem.counts().toString());
  }

  @Test
  void withoutNightIndexesEveryRunIsCheckedFromTheClientAndSaidOnce() throws IOException {
    Path small = archiveWith("old-small", 2, false);
    Path big = archiveWith("old-big", 8, false);
    Counted s = selectCounting(small, "2026-11-02", null);
    Counted b = selectCounting(big, "2026-11-02", null);
    assertEquals(4 * s.runs().size(), b.runs().size());
    // per run: its index entry, its manifest (a match and a read), per block file a match and
    // two reads
    assertTrue(b.requests() - s.requests() >= 3L * (b.runs().size() - s.runs().size()),
        s.requests() + " then " + b.requests());
    assertThat(b.err(), containsString(b.runs().size() + " of " + b.runs().size()
        + " selected runs of " + CountingFileSystem.of(big) + " are in no night index"));
    assertEquals(1, b.err().split("in no night index", -1).length - 1, b.err());
  }
}
