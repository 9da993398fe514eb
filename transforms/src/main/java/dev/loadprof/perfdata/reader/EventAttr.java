package dev.loadprof.perfdata.reader;

/**
 * The parts of one event's perf_event_attr that decoding needs, and its name as perf script prints
 * it ("cpu-clock", "sched:sched_switch").
 */
record EventAttr(int type, long config, long samplePeriod, long sampleType, long readFormat,
    long flags, String name) {
  static final int TYPE_TRACEPOINT = 2;

  // sample_type bits (linux/perf_event.h).
  static final long SAMPLE_IP = 1L;
  static final long SAMPLE_TID = 1L << 1;
  static final long SAMPLE_TIME = 1L << 2;
  static final long SAMPLE_ADDR = 1L << 3;
  static final long SAMPLE_READ = 1L << 4;
  static final long SAMPLE_CALLCHAIN = 1L << 5;
  static final long SAMPLE_ID = 1L << 6;
  static final long SAMPLE_CPU = 1L << 7;
  static final long SAMPLE_PERIOD = 1L << 8;
  static final long SAMPLE_STREAM_ID = 1L << 9;
  static final long SAMPLE_RAW = 1L << 10;
  static final long SAMPLE_REGS_USER = 1L << 12;
  static final long SAMPLE_STACK_USER = 1L << 13;
  static final long SAMPLE_IDENTIFIER = 1L << 16;

  // read_format bits.
  static final long READ_TIME_ENABLED = 1L;
  static final long READ_TIME_RUNNING = 1L << 1;
  static final long READ_ID = 1L << 2;
  static final long READ_GROUP = 1L << 3;
  static final long READ_LOST = 1L << 4;

  // attr flag bits.
  private static final long FLAG_FREQ = 1L << 10;
  private static final long FLAG_SAMPLE_ID_ALL = 1L << 18;

  boolean has(long sampleBit) {
    return (sampleType & sampleBit) != 0;
  }

  boolean sampleIdAll() {
    return (flags & FLAG_SAMPLE_ID_ALL) != 0;
  }

  /**
   * perf record --call-graph dwarf: the user-space frames are not in the callchain (the kernel
   * was told to leave them out) but must be unwound from the user registers and the copy of the
   * stack each sample carries.
   */
  boolean dwarfCallGraph() {
    return has(SAMPLE_REGS_USER) && has(SAMPLE_STACK_USER);
  }

  boolean isTracepoint() {
    return type == TYPE_TRACEPOINT;
  }

  /** The period perf script prints when a sample has none: the attr's fixed period. */
  long defaultPeriod() {
    return (flags & FLAG_FREQ) != 0 ? 0 : samplePeriod;
  }

  /** Bytes of a sample's READ field. */
  int readBytes(long nrInGroup) {
    int perValue = 8 + ((readFormat & READ_ID) != 0 ? 8 : 0)
        + ((readFormat & READ_LOST) != 0 ? 8 : 0);
    int times = ((readFormat & READ_TIME_ENABLED) != 0 ? 8 : 0)
        + ((readFormat & READ_TIME_RUNNING) != 0 ? 8 : 0);
    return (readFormat & READ_GROUP) != 0 ? 8 + times + (int) nrInGroup * perValue
        : times + perValue;
  }

  /** Bytes of the sample_id trailer of a non-sample record (sample_id_all). */
  int idTrailerBytes() {
    int n = 0;
    for (long bit : new long[] {SAMPLE_TID, SAMPLE_TIME, SAMPLE_ID, SAMPLE_STREAM_ID, SAMPLE_CPU,
        SAMPLE_IDENTIFIER}) {
      n += has(bit) ? 8 : 0;
    }
    return sampleIdAll() ? n : 0;
  }

  EventAttr named(String newName) {
    return new EventAttr(type, config, samplePeriod, sampleType, readFormat, flags, newName);
  }
}
