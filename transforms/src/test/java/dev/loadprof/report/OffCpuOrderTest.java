package dev.loadprof.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.loadprof.model.CallStack;
import dev.loadprof.model.Frame;
import dev.loadprof.model.ThreadState;
import dev.loadprof.wall.ThreadStateSummary;
import dev.loadprof.wall.ThreadStateSummary.Wait;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** offcpu.pb.gz is the same bytes whatever order the wait map holds its entries in. */
class OffCpuOrderTest {
  /** Two stacks that print alike (one function at two addresses), in the given order. */
  private static Analysis withWaits(boolean reversed) {
    Analysis a = Fixtures.singleProcess();
    Wait low = new Wait(7, ThreadState.SLEEPING,
        new CallStack(new Frame[] {new Frame("futex_wait", "[kernel.kallsyms]", 0x10)}));
    Wait high = new Wait(7, ThreadState.SLEEPING,
        new CallStack(new Frame[] {new Frame("futex_wait", "[kernel.kallsyms]", 0x20)}));
    Map<Wait, Double> waits = new LinkedHashMap<>();
    for (Wait w : reversed ? List.of(high, low) : List.of(low, high)) {
      waits.put(w, 1e6);
    }
    ThreadStateSummary s = new ThreadStateSummary();
    s.waits = waits;
    a.processes().get(0).threadStates = s;
    return a;
  }

  @Test
  void stacksThatPrintAlikeKeepOneOrder() {
    assertArrayEquals(OffCpuPprofReport.build(withWaits(false)).toByteArray(),
        OffCpuPprofReport.build(withWaits(true)).toByteArray());
  }
}
