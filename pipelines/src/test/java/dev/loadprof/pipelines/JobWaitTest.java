package dev.loadprof.pipelines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A DirectRunner job whose worker ran out of heap without the runner hearing of it waits
 * forever; with the launcher's out-of-heap file, {@link JobWait} fails it at once.
 */
class JobWaitTest {
  /** Holds the job's one element until released: a job whose work was lost, as seen from outside. */
  private static final CountDownLatch STUCK = new CountDownLatch(1);

  @TempDir Path dir;

  @AfterEach
  void release() {
    STUCK.countDown();
    System.clearProperty(JobWait.MARKER_PROPERTY);
  }

  static final class WaitForever extends DoFn<Integer, Integer> {
    @ProcessElement
    public void process(@Element Integer i, OutputReceiver<Integer> out)
        throws InterruptedException {
      STUCK.await(60, TimeUnit.SECONDS);
      out.output(i);
    }
  }

  static final class Pass extends DoFn<Integer, Integer> {
    @ProcessElement
    public void process(@Element Integer i, OutputReceiver<Integer> out) {
      out.output(i);
    }
  }

  private static Pipeline job(DoFn<Integer, Integer> fn) {
    Pipeline p = Pipeline.create(PipelineOptionsFactory.fromArgs("--runner=DirectRunner")
        .create()); // its run() waits for the job (blockOnRun)
    p.apply(Create.of(1, 2, 3)).apply(ParDo.of(fn));
    return p;
  }

  @Test
  void aStuckJobFailsOnceTheJvmRanOutOfHeap() throws Exception {
    Path marker = dir.resolve("loadprof-oom-1");
    System.setProperty(JobWait.MARKER_PROPERTY, marker.toString());
    Thread oom = new Thread(() -> {
      try {
        Thread.sleep(500);
        Files.createFile(marker); // what -XX:OnOutOfMemoryError=touch does
      } catch (Exception e) {
        throw new RuntimeException(e);
      }
    });
    oom.start();
    long start = System.nanoTime();
    OutOfMemoryError e = assertTimeoutPreemptively(Duration.ofSeconds(20),
        () -> assertThrows(OutOfMemoryError.class, () -> JobWait.run(job(new WaitForever()))));
    assertTrue(e.getMessage().startsWith("Java heap space"), e.getMessage());
    assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(15));
    oom.join();
  }

  /**
   * The DirectRunner may drop the bundle whose worker ran out of heap and end the job as done
   * (an archive said "0 runs added" and exited 0): the job fails all the same.
   */
  @Test
  void aJobThatEndsWellAfterTheJvmRanOutOfHeapFails() throws Exception {
    Path marker = dir.resolve("loadprof-oom-3");
    System.setProperty(JobWait.MARKER_PROPERTY, marker.toString());
    Files.createFile(marker);
    assertThrows(OutOfMemoryError.class, () -> JobWait.run(job(new Pass())));
  }

  @Test
  void aJobEndsAsBeforeWhenTheHeapHeld() {
    System.setProperty(JobWait.MARKER_PROPERTY, dir.resolve("loadprof-oom-2").toString());
    PipelineResult result = assertTimeoutPreemptively(Duration.ofSeconds(60),
        () -> JobWait.run(job(new Pass())));
    assertEquals(PipelineResult.State.DONE, result.getState());
  }

  @Test
  void withoutTheLauncherAJobIsWaitedForAsBefore() {
    PipelineResult result = JobWait.run(job(new Pass()));
    assertEquals(PipelineResult.State.DONE, result.getState());
  }
}
