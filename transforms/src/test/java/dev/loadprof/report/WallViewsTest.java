package dev.loadprof.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.loadprof.critical.CriticalPath;
import dev.loadprof.wall.ThreadStates;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** The wall views' scheduling: results in the tasks' order, paths where asked, errors thrown. */
class WallViewsTest {
  /** A task whose steps record which thread ran them; its path is a marker object. */
  private static final class FakeTask implements WallViews.Task {
    final boolean wantsPath;
    final long replayMillis;
    final RuntimeException replayFails;
    final Map<String, String> threads = new ConcurrentHashMap<>();
    final CriticalPath path = new CriticalPath(0, 1, List.of(), List.of(), List.of(), Map.of(), 0,
        0, 0, List.of(), Map.of(), List.of(), List.of(), List.of());

    FakeTask(boolean wantsPath, long replayMillis, RuntimeException replayFails) {
      this.wantsPath = wantsPath;
      this.replayMillis = replayMillis;
      this.replayFails = replayFails;
    }

    @Override
    public ThreadStates.Replayed replay() {
      threads.put("replay", Thread.currentThread().getName());
      sleep(replayMillis);
      if (replayFails != null) {
        throw replayFails;
      }
      return null;
    }

    @Override
    public WallViews.Wall states(ThreadStates.Replayed replayed) {
      threads.put("states", Thread.currentThread().getName());
      return new WallViews.Wall(null, null, null);
    }

    @Override
    public boolean wantsCriticalPath() {
      return wantsPath;
    }

    @Override
    public CriticalPath criticalPath(ThreadStates.Replayed replayed) {
      threads.put("path", Thread.currentThread().getName());
      return path;
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Test
  void wallsComeInTheTasksOrderWithPathsWhereAskedAndAlongsideRunsOnTheCaller() {
    List<FakeTask> tasks = new ArrayList<>();
    // Slow first tasks: the later ones finish first.
    for (int i = 0; i < 6; i++) {
      tasks.add(new FakeTask(i == 4, 30 - 5 * i, null));
    }
    AtomicBoolean ranAlongside = new AtomicBoolean();
    String caller = Thread.currentThread().getName();
    List<WallViews.Wall> walls = WallViews.compute(new ArrayList<>(tasks),
        () -> ranAlongside.set(Thread.currentThread().getName().equals(caller)));
    assertEquals(6, walls.size());
    for (int i = 0; i < 6; i++) {
      if (i == 4) {
        assertSame(tasks.get(i).path, walls.get(i).criticalPath());
        assertEquals("loadprof-critical-path", tasks.get(i).threads.get("path"));
      } else {
        assertNull(walls.get(i).criticalPath());
        assertNull(tasks.get(i).threads.get("path"));
      }
      assertEquals("loadprof-wall", tasks.get(i).threads.get("states"));
    }
    assertEquals(true, ranAlongside.get());
  }

  @Test
  void aFailedReplayIsThrownAndItsPathDoesNotWaitForever() {
    IllegalStateException boom = new IllegalStateException("replay failed");
    List<WallViews.Task> tasks = List.of(new FakeTask(true, 0, boom),
        new FakeTask(false, 0, null));
    IllegalStateException thrown = assertTimeoutPreemptively(Duration.ofSeconds(10),
        () -> assertThrows(IllegalStateException.class, () -> WallViews.compute(tasks, () -> {})));
    assertSame(boom, thrown);
  }
}
