package dev.loadprof.beam;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.perfdata.DecodePiece;
import dev.loadprof.perfdata.PieceTask;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A perf.data file's pieces decoded at once: a failed piece ends the call only after every
 * other decode has ended, and their text files are deleted. With the parallel stream it was, the
 * call ended at once, and the other decodes went on adding their pieces to the list the caller
 * was deleting (ConcurrentModificationException) or after (files left behind).
 */
class LocalDecodeTest {
  private static final int PIECES = 8;

  @TempDir Path dir;

  private static List<PieceTask> planned() {
    List<PieceTask> tasks = new ArrayList<>();
    for (int i = 0; i < PIECES; i++) {
      tasks.add(new PieceTask(new DecodePiece(DecodePiece.Kind.TIME, i, PIECES, -1, i, i),
          null, null));
    }
    return tasks;
  }

  @Test
  void aFailedPieceEndsTheCallOnlyWhenEveryDecodeHasEnded() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    List<Path> written = Collections.synchronizedList(new ArrayList<>());
    AtomicBoolean returned = new AtomicBoolean();
    AtomicInteger late = new AtomicInteger();
    LocalDecode.PieceDecoder decoder = task -> {
      if (task.piece().index() == 0) {
        throw new IOException("perf script failed on piece 0");
      }
      try {
        release.await();
      } catch (InterruptedException e) {
        throw new IOException(e);
      }
      Path text = Files.createTempFile(dir, "piece-", ".txt");
      written.add(text);
      if (returned.get()) {
        late.incrementAndGet();
      }
      return task.decodedInto(text.toString());
    };
    var caller = Executors.newSingleThreadExecutor();
    try {
      Future<List<PieceTask>> call = caller.submit(() -> {
        try {
          return LocalDecode.all(planned(), decoder);
        } finally {
          returned.set(true);
        }
      });
      Thread.sleep(300); // piece 0 has failed by now; the others wait for the release
      assertFalse(call.isDone(), "the call ended while pieces were still being decoded");
      release.countDown();
      ExecutionException e = assertThrows(ExecutionException.class,
          () -> call.get(60, TimeUnit.SECONDS));
      assertInstanceOf(IOException.class, e.getCause());
      assertEquals("perf script failed on piece 0", e.getCause().getMessage());
    } finally {
      caller.shutdownNow();
    }
    assertEquals(PIECES - 1, written.size());
    assertEquals(0, late.get(), "pieces decoded after the call had ended");
    for (Path text : written) {
      assertFalse(Files.exists(text), text + " was left behind");
    }
  }

  @Test
  void thePiecesComeBackInTheirOrder() throws Exception {
    List<PieceTask> decoded = LocalDecode.all(planned(), task -> {
      try {
        Thread.sleep((PIECES - task.piece().index()) * 5L); // the last piece ends first
      } catch (InterruptedException e) {
        throw new IOException(e);
      }
      return task.decodedInto("piece-" + task.piece().index());
    });
    for (int i = 0; i < PIECES; i++) {
      assertEquals("piece-" + i, decoded.get(i).decodedFile());
    }
    assertTrue(LocalDecode.all(List.of(), t -> t).isEmpty());
  }
}
