/**
 * The trace archive: traces parsed once into Avro files, analyzed many times.
 *
 * <p>{@code loadprof archive --out ARCHIVE TRACE...} stores what {@code ParseTraces} produces:
 * the blocks of events per (run, CPU, window) as {@code EventBlockRecord}s (schemas in the
 * schemas module) and one {@code RunManifestRecord} per run. {@code loadprof analyze ARCHIVE}
 * reads them back into the same collections, so the outputs are byte for byte those of
 * analyzing the traces with the same --window and --event.
 *
 * <p>Layout on disk ({@link dev.loadprof.archive.ArchiveLayout}):
 * <pre>
 * ARCHIVE/loadprof-archive.json           marker: {"format": "loadprof-archive", "version": 1}
 * ARCHIVE/runs/RUN_ID.avro                the run's manifest; the commit point
 * ARCHIVE/blocks/RUN_ID/JOB-NNNNN.avro    the run's blocks (4 files per run), snappy codec
 * ARCHIVE/.staging/JOB/                   files of a job that has not committed (yet)
 * </pre>
 *
 * <p>Atomicity: block files are written under .staging, moved under blocks/ when all are
 * complete, and the manifest is written last (temp file, rename). Readers list runs/ and read only
 * the block files a manifest lists, with the sizes it records, so a failed job leaves nothing
 * visible, and a block file cut short is caught before it is decoded.
 *
 * <p>De-duplication ({@link dev.loadprof.archive.CommitRun}): a run is identified by its run id
 * (the trace file name) and fingerprinted by the SHA-256 of its decompressed text. Same id and
 * fingerprint, window and event: skipped. Same id and fingerprint, other window or event:
 * replaced. Same id, other fingerprint: refused (exit 2); rename the trace.
 *
 * <p>Integrity: Avro's snappy codec keeps a CRC32 per Avro block, so damaged bytes are detected
 * when read; every read failure is an {@link dev.loadprof.archive.ArchiveCorruptException}
 * naming the file, which the CLI turns into exit code 2.
 */
package dev.loadprof.archive;
