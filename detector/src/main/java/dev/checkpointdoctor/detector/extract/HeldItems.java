package dev.checkpointdoctor.detector.extract;

import dev.checkpointdoctor.detector.model.Signal;

/**
 * What one node, container or TaskManager produced while its jobs are not yet known, oldest first:
 * per item the timestamp, the signal and value it gives (if any) and how many samples it stands
 * for. Primitive columns in a ring, about 17 bytes an item.
 */
final class HeldItems {
  private static final Signal[] SIGNALS = Signal.values();

  private long[] ts = new long[4];
  private double[] values = new double[4];
  private byte[] signals = new byte[4];
  private byte[] samples = new byte[4];
  private int head;
  private int size;

  /**
   * Adds an item in timestamp order: samples of the source's series arrive interleaved (shards),
   * and the queue is decided from its oldest item. {@code signal} null: the item only counts
   * samples that give no value by themselves.
   */
  void add(long t, Signal signal, double value, int sampleCount) {
    if (size == ts.length) {
      grow();
    }
    int n = ts.length;
    int k = size;
    // usually in order: shift the few newer items one place towards the tail
    while (k > 0 && ts[(head + k - 1) % n] > t) {
      int from = (head + k - 1) % n;
      int to = (head + k) % n;
      ts[to] = ts[from];
      values[to] = values[from];
      signals[to] = signals[from];
      samples[to] = samples[from];
      k--;
    }
    int i = (head + k) % n;
    ts[i] = t;
    values[i] = value;
    signals[i] = (byte) (signal == null ? -1 : signal.ordinal());
    samples[i] = (byte) sampleCount;
    size++;
  }

  boolean isEmpty() {
    return size == 0;
  }

  int size() {
    return size;
  }

  long headTs() {
    return ts[head];
  }

  Signal headSignal() {
    byte s = signals[head];
    return s < 0 ? null : SIGNALS[s];
  }

  double headValue() {
    return values[head];
  }

  int headSamples() {
    return samples[head];
  }

  void pop() {
    head = (head + 1) % ts.length;
    size--;
    if (size == 0) {
      head = 0;
    }
  }

  private void grow() {
    int n = ts.length * 2;
    long[] t2 = new long[n];
    double[] v2 = new double[n];
    byte[] s2 = new byte[n];
    byte[] c2 = new byte[n];
    for (int k = 0; k < size; k++) {
      int i = (head + k) % ts.length;
      t2[k] = ts[i];
      v2[k] = values[i];
      s2[k] = signals[i];
      c2[k] = samples[i];
    }
    ts = t2;
    values = v2;
    signals = s2;
    samples = c2;
    head = 0;
  }
}
