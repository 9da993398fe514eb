/**
 * The trace archive: traces parsed once into Avro files, analyzed many times, on any store Beam
 * has a filesystem for (local disk; S3 and HDFS with the loadprof-stores module).
 *
 * <p>{@code loadprof archive --out ARCHIVE TRACE...} stores what {@code ParseTraces} produces:
 * the blocks of events per (run, CPU, window) as {@code EventBlockRecord}s (schemas in the
 * schemas module) and one {@code RunManifestRecord} per run. {@code loadprof analyze ARCHIVE}
 * reads them back into the same collections, so the outputs are byte for byte those of
 * analyzing the traces with the same --window and --event.
 *
 * <p>Layout, format 3 ({@link dev.loadprof.archive.beam.ArchiveLayout}):
 * <pre>
 * ARCHIVE/loadprof-archive.json              marker: {"format": "loadprof-archive", "version": 3}
 * ARCHIVE/runs/RUN_ID.avro                   the run's manifest, with its checksum; the commit
 *                                            point
 * ARCHIVE/blocks/RUN_ID/JOB-NNNNN.avro       the run's blocks (4 files per run), snappy codec
 * ARCHIVE/index/night=N/host=H/RUN_ID@JOB    the run's partitions ({@link
 *                                            dev.loadprof.archive.IndexEntry}, with a checksum)
 * ARCHIVE/index/night=N/host=H/@JOB          the night index: the runs JOB committed (or found
 *                                            unindexed) there, with their manifests' checksums,
 *                                            event, window, fingerprint and block files with
 *                                            sizes ({@link dev.loadprof.archive.NightIndex})
 * ARCHIVE/figures/RUN_ID/JOB-bN-KIND.bin     figures computed from the run's blocks (nightly's),
 *                                            stored by the first job that computed them ({@link
 *                                            dev.loadprof.archive.beam.RunFigures})
 * ARCHIVE/night-figures/night=N/SET-KIND.bin a night's figures, manifests and night indexes in
 *                                            one file, written once the night's figures are
 *                                            all stored ({@link
 *                                            dev.loadprof.archive.beam.NightFigures})
 * ARCHIVE/.staging/JOB/                      files of a job that has not committed (yet)
 * </pre>
 *
 * <p>Commit protocol, the same on every store: (1) block files are written under
 * .staging/JOB/; (2) when all are complete, each run is committed on its own by {@link
 * dev.loadprof.archive.beam.CommitRun}: its block files are moved to names unique to the job
 * (blocks/RUN_ID/JOB-NNNNN.avro), (3) its manifest is created, <em>only if absent</em>, through
 * the store's create-if-absent primitive ({@link dev.loadprof.archive.beam.ExclusiveCreate}),
 * and (4) its index entry is written; (5) once every run of a night and host is committed, the
 * job writes its night index of them. An index entry therefore always has its manifest (one
 * without is damage), and a night index lists only runs with both; a run whose entry is missing
 * (a job killed between (3) and (4)) is found by readers that list the names of runs/ and of
 * the index (the whole archive, or nights without night indexes), and said; a selection of
 * nights that night indexes cover does not list runs/, and does not see it until its trace is
 * archived again. A run of a job killed before (5) has no night index: readers check it
 * from its entry and manifest, as before night indexes, and say so once; archiving its trace
 * again indexes it. Nothing relies on renaming a directory, which object
 * stores cannot do atomically; moving a block file on S3 is a copy and a delete, harmless because
 * no manifest lists the file yet. Readers list runs/ (or the index) and read only the block files
 * a manifest lists, with the sizes it records, so a failed or killed job leaves nothing visible,
 * and a block file cut short is caught before it is decoded. The next job that commits the same
 * run deletes what a failed job left for it once it is older than
 * --archiveDebrisGraceMinutes (default 60; younger files may belong to a job still running);
 * staged files are swept the same way at the start of every archive job.
 *
 * <p>Create-if-absent per store: local disk, write a temp file and hard-link it to the name
 * (link(2) fails when the name exists); HDFS, write a temp file and rename it (the NameNode
 * refuses a rename onto an existing file, atomically; Beam's own HDFS rename deletes the target
 * first, so it is not used); S3, one PutObject with {@code If-None-Match: *} (S3 conditional
 * writes: 412 when the key exists). After creating, the manifest is read back and must name this
 * job: a store that ignores If-None-Match, or checks it non-atomically (S3Mock does: of eight
 * simultaneous PUTs two can both succeed), then still gives one winner unless both writers also
 * read back before the second write lands. Other schemes (gs://) fall back to check-then-rename:
 * runs stay atomic, but two concurrent writers of one run id are not guarded (a warning says so).
 *
 * <p>Concurrent writers: jobs writing different runs never touch the same names (job ids in
 * block and index names, one manifest per run id), so all land. Two jobs writing one run id:
 * exactly one creates the manifest; the other deletes its block files and is
 * UNCHANGED when its trace has the same fingerprint, or fails with {@link
 * dev.loadprof.archive.ArchiveRunConflictException} (the CLI exits 2) when it is another trace.
 *
 * <p>De-duplication ({@link dev.loadprof.archive.beam.CommitRun}): a run is identified by its run id
 * (the trace file name) and fingerprinted by the SHA-256 of its decompressed text. Same id and
 * fingerprint, window and event: skipped. Same id and fingerprint, other window or event:
 * replaced (new manifest renamed over the old one; on S3 a single copy, seen whole or not at
 * all; a reader that listed the old manifest while it is replaced may fail and is rerun). Same
 * id, other fingerprint: refused (exit 2); rename the trace.
 *
 * <p>Identical content under two run ids (one fingerprint) is read as one run: the first run
 * id is counted, the other is read as a run without blocks whose warning names both, so
 * compare and nightly list it as excluded ({@link dev.loadprof.archive.beam.ReadArchive}).
 *
 * <p>Partitions ({@link dev.loadprof.archive.RunSelection}, {@link
 * dev.loadprof.archive.beam.ArchiveListing}): each run has a night ({@link
 * dev.loadprof.archive.NightRule}: archive --night, else the run id's date, else the recording's
 * capture date, else the trace file's date) and a host (from the trace header, "_" when none). Selecting
 * nights lists only index/night=N/ for each night (the whole index/ when those nights have no
 * night index); hosts only, index/ (never blocks/). An index entry counts only while
 * runs/RUN_ID.avro names its job, so entries of failed jobs are ignored. The client reads the
 * night indexes of the selected partitions, one object per night, host and job, and none of the
 * runs' own files (nor a listing of runs/: a manifest is named by its run id): their entries,
 * manifests (a missing one is damage, named there) and block files are checked in the job's
 * workers
 * ({@link dev.loadprof.archive.beam.RunChecks}), with the same messages. Night indexes need no
 * new format: older loadprof versions skip them (no run id is empty). Format 1 archives (no
 * index) still read whole; a selection on them says to re-archive.
 *
 * <p>Stored figures: a job whose last step keeps a small part of each run (nightly's figures,
 * report.RunByRunWriter) stores that part of every archived run it computes, create-if-absent,
 * under a name of the blocks' version (the manifest's job and blocks version) and of the
 * figures' own version, and reads it back next time instead of the run's blocks, whose files it
 * then neither checks nor reads. A run archived again (replaced, repaired) has another job and
 * is computed again; so is every run when the figures' version is raised. A job in the CLI's
 * JVM also gathers a night's stored figures into one file with the night's manifests and night
 * indexes, named by the night indexes as listed, and reads a past night from it in one request.
 *
 * <p>Integrity: Avro's snappy codec keeps a CRC32 per Avro block of a block file, and a block
 * file's size is in its manifest; a manifest carries the SHA-256 of its canonical encoding in its
 * Avro metadata (format 3), an index entry the SHA-256 of its lines. Every read failure is an
 * {@link dev.loadprof.archive.ArchiveCorruptException} naming the file, the run and the command
 * that repairs it ({@code loadprof archive --out ARCHIVE TRACE}), which the CLI turns into exit
 * code 2. Formats 1 and 2 (no checksums, empty index entries) still read, unchecked; the CLI
 * says so once per archive.
 */
package dev.loadprof.archive;
