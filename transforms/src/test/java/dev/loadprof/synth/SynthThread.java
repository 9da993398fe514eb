package dev.loadprof.synth;

/**
 * One thread of the synthetic world. The main thread of a launched process is named "perf-exec"
 * until its exec instant, exactly as perf record's fork+exec looks in a real trace.
 */
final class SynthThread {
  final int pid;
  final int tid;
  final String comm;
  /** Before this instant the thread is still perf's forked child, named "perf-exec". */
  final long execNs;
  /** The object file its user frames live in. */
  final String dso;
  /** The frame under the phase function: "main" for a main thread, "worker_main" for workers. */
  final String rootFrame;

  SynthThread(int pid, int tid, String comm, long execNs, String dso, String rootFrame) {
    this.pid = pid;
    this.tid = tid;
    this.comm = comm;
    this.execNs = execNs;
    this.dso = dso;
    this.rootFrame = rootFrame;
  }

  String commAt(long timeNs) {
    return timeNs < execNs ? "perf-exec" : comm;
  }

  @Override
  public String toString() {
    return comm + ":" + pid + "/" + tid;
  }
}
