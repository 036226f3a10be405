package dev.checkpointdoctor.detector.pipeline;

import dev.checkpointdoctor.detector.model.SeriesHistory;
import dev.checkpointdoctor.detector.model.Signal;

/**
 * Bounded raw history of one (job, signal, scope): points younger than {@link #SPAN_MS} of event
 * time, at most {@link #CAPACITY}. When full, the older half is thinned to every second point, so
 * the whole span stays covered with recent points at full resolution and older ones sparser.
 *
 * <p>Kept compact, because every tracked series has one: values as floats, fractional ones of
 * task and node series rounded to {@link #VALUE_BITS} significant bits (see {@link #kept}),
 * times exact to the millisecond. Points are packed in {@link PackedBlock}s of {@link PackedBlock#POINTS}:
 * each stores its times as residuals from a straight line through its first and last time
 * (scrapes are regular, so a few bits each) and its values as the bits that differ from its
 * first value (repeated or integral values take few bits). The newest points wait unpacked in a
 * small open block of {@link #PART} points, which is then packed as a part block; every
 * {@link PackedBlock#POINTS} / {@link #PART} part blocks are packed again as one whole block
 * (fewer headers). Unpacked points take 8 bytes each, and every history holds an open block, so
 * it is kept at a quarter of a whole block. Any point is read in constant time, as the rules
 * read them.
 *
 * <p>Part blocks live in an array of their own, apart from the whole blocks: sealing a part copies
 * only the few words of the parts, and merging them grows the whole blocks' array once per whole
 * block (both arrays stay exactly as long as their contents, as the heap per series wants).
 * Repacking works in per-thread scratch arrays: a history is only changed by the thread holding
 * the detector's lock.
 */
final class RecentHistory implements SeriesHistory {
  static final long SPAN_MS = 2 * 3600_000L;
  static final int CAPACITY = 256;
  private static final int INITIAL = 4;
  private static final int B = PackedBlock.POINTS;
  /** Points of a part block and at most of the open block. */
  static final int PART = 8;
  private static final int PARTS = B / PART;
  /** Significant bits a fractional value keeps: see {@link #kept}. */
  static final int VALUE_BITS = 16;

  private final Signal signal;
  private final String scope;
  /** Times are int milliseconds from base: the span is 2 h, so an int holds every offset. */
  private long base = Long.MIN_VALUE;
  /**
   * Packed blocks: {@link #blocks} whole ones of {@link #B} points in words, the first
   * {@link #skip} of them expired, then {@link #parts} part blocks of {@link #PART} points (fewer
   * than {@link #PARTS}) in partWords; blockStart[b] is where block b starts in its array, the
   * parts after the whole ones.
   */
  private long[] words = EMPTY_WORDS;
  /** The part blocks, back to back: exactly as long as they are. */
  private long[] partWords = EMPTY_WORDS;
  private int[] blockStart = EMPTY_STARTS;
  private int blocks;
  private int parts;
  private int wordsUsed;
  private int skip;
  /** The newest points, not packed yet: fewer than {@link #PART} after the blocks. */
  // each a time offset (high half) and a value's float bits (low half): one array, not an int[]
  // and a float[] (16 bytes a history fewer, a header and a reference)
  private long[] openPoints = new long[INITIAL];
  private int open;
  private int size;
  /**
   * Time of point 0 while there is one, from base: checked on every add, so not unpacked each
   * time; an offset as every point's is, 4 bytes where a long took the object to 96.
   */
  private int firstOffset;
  /** Points expired off the front so far: see {@link #firstPosition()}. */
  private long expiredCount;
  /** Bumped when thinning or a rebase removes points: see {@link #layoutVersion()}. */
  private long layoutVersion;

  private static final long[] EMPTY_WORDS = new long[0];
  private static final int[] EMPTY_STARTS = new int[0];
  private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

  RecentHistory(Signal signal, String scope) {
    this.signal = signal;
    this.scope = scope;
  }

  /**
   * A job-scoped series keeps its values at a float's precision: there is one per job against
   * dozens per task and node, so rounding them would save next to nothing, and the checkpoint
   * rules read them finest (the checkpoint age is seconds from two millisecond timestamps; 16
   * bits keep the millisecond only below 64 s, and its onset and overdue tests read it). Asked
   * on every add rather than kept in a field, which would take the object from 96 to 104 bytes.
   */
  private static final String JOB_SCOPE = "job";

  void add(long timeMs, double value) {
    long cutoff = timeMs - SPAN_MS;
    if (size > 0 && base + firstOffset < cutoff) {
      int expired = 1;
      while (expired < size && timeMs(expired) < cutoff) {
        expired++;
      }
      dropFront(expired);
      if (size > 0) {
        firstOffset = offset(0);
      }
    }
    if (size == CAPACITY) {
      thinOlderHalf();
    }
    if (size == 0 || !fits(timeMs)) {
      rebase(timeMs);
    }
    append((int) (timeMs - base), JOB_SCOPE.equals(scope) ? (float) value : kept(value));
  }

  /**
   * The value a point keeps. Integral floats stay exact (counts, bytes, milliseconds, ids: rules
   * compare them for equality, and every float from 2^23 up is one); a fractional value (a rate,
   * an average, noise) is rounded to the nearest float of {@link #VALUE_BITS} significant bits,
   * a relative error of at most 2^-16 (1.5e-5). The cause rules read shapes, ratios and ranks
   * of these values against thresholds of a percent and more; below that, noise in the low bits
   * only costs packed bits (a noisy value differed from its block's first one in ~22 bits, now
   * ~14).
   */
  static float kept(double value) {
    float f = (float) value;
    if (f == Math.rint(f) || !Float.isFinite(f)) {
      return f;
    }
    int drop = 24 - VALUE_BITS;
    int bits = Float.floatToRawIntBits(f);
    // round half to even on the kept grid; a carry into the exponent is the next power of two
    int half = (1 << (drop - 1)) - 1 + (bits >>> drop & 1);
    return Float.intBitsToFloat(bits + half & -(1 << drop));
  }

  private boolean fits(long timeMs) {
    long offset = timeMs - base;
    return offset >= Integer.MIN_VALUE && offset <= Integer.MAX_VALUE;
  }

  private void append(int time, float value) {
    if (open == PART) {
      seal();
    }
    if (open == openPoints.length) {
      openPoints = java.util.Arrays.copyOf(openPoints, Math.min(PART, openPoints.length * 2));
    }
    openPoints[open] = openPoint(time, value);
    open++;
    if (size++ == 0) {
      firstOffset = time;
    }
  }

  /** Packs the full open block as a part block after the others; whole parts become a block. */
  private void seal() {
    Scratch s = SCRATCH.get();
    int[] openTimes = s.firstTimes;
    float[] openValues = s.firstValues;
    copyOpen(openTimes, openValues, 0);
    int at = partWords.length;
    // exactly: slack would stay for good; a copy of the parts only, a few words
    partWords = java.util.Arrays.copyOf(partWords,
        at + PackedBlock.words(openTimes, openValues, 0, PART));
    if (blocks + parts == blockStart.length) {
      blockStart = java.util.Arrays.copyOf(blockStart, blocks + parts + 2);
    }
    blockStart[blocks + parts++] = at;
    PackedBlock.write(openTimes, openValues, 0, PART, partWords, at);
    open = 0;
    if (parts == PARTS) {
      mergeParts();
    }
  }

  /** Packs the part blocks again as one whole block (one header instead of four). */
  private void mergeParts() {
    Scratch s = SCRATCH.get();
    int[] t = s.times;
    float[] v = s.values;
    for (int p = 0; p < PARTS; p++) {
      PackedBlock.decode(partWords, blockStart[blocks + p], PART, t, v, p * PART);
    }
    int need = PackedBlock.words(t, v, 0, B);
    if (wordsUsed + need > words.length) {
      words = java.util.Arrays.copyOf(words, wordsUsed + need);
    }
    blockStart[blocks] = wordsUsed;
    wordsUsed += PackedBlock.write(t, v, 0, B, words, wordsUsed);
    blocks++;
    parts = 0;
    partWords = EMPTY_WORDS;
  }

  /** Expires the {@code n} oldest points. */
  private void dropFront(int n) {
    expiredCount += n;
    if (blocks == 0 && parts == 0) {
      size -= n;
      System.arraycopy(openPoints, n, openPoints, 0, open - n);
      open -= n;
      return;
    }
    if (n < blocks * B - skip) {
      size -= n;
      skip += n;
      int whole = skip / B;
      if (whole > 0) {
        removeBlocks(whole);
        skip -= whole * B;
      }
      return;
    }
    // every whole block goes, and part blocks or open points too: only a sparse series (fewer
    // than a whole block within the span) gets here, so its few points are packed afresh
    Scratch s = SCRATCH.get();
    int[] t = s.times;
    float[] v = s.values;
    unpack(t, v, s);
    int kept = size - n;
    System.arraycopy(t, n, t, 0, kept);
    System.arraycopy(v, n, v, 0, kept);
    rebuild(t, v, kept);
  }

  /** Removes the {@code k} oldest whole blocks (fewer than there are blocks, parts included). */
  private void removeBlocks(int k) {
    int from = blockStart[k];
    System.arraycopy(words, from, words, 0, wordsUsed - from);
    wordsUsed -= from;
    for (int b = k; b < blocks; b++) {
      blockStart[b - k] = blockStart[b] - from;
    }
    for (int b = blocks; b < blocks + parts; b++) {
      blockStart[b - k] = blockStart[b]; // in partWords: they stay where they are
    }
    blocks -= k;
    if (words.length > wordsUsed + 32) {
      words = java.util.Arrays.copyOf(words, wordsUsed);
    }
  }

  /**
   * Moves the base to {@code timeMs}. Kept points lie within SPAN_MS of the newest, so they all
   * fit again; only a point more than 24 days out of order could not, and it is dropped.
   */
  private void rebase(long timeMs) {
    Scratch s = SCRATCH.get();
    int[] t = s.times;
    float[] v = s.values;
    unpack(t, v, s);
    int w = 0;
    for (int i = 0; i < size; i++) {
      long offset = base + t[i] - timeMs;
      if (offset >= Integer.MIN_VALUE && offset <= Integer.MAX_VALUE) {
        t[w] = (int) offset;
        v[w] = v[i];
        w++;
      }
    }
    if (w < size) {
      layoutVersion++;
    }
    base = timeMs;
    rebuild(t, v, w);
  }

  private void thinOlderHalf() {
    Scratch s = SCRATCH.get();
    int[] t = s.times;
    float[] v = s.values;
    unpack(t, v, s);
    int half = size / 2;
    int w = 0;
    for (int r = 0; r < half; r += 2) {
      t[w] = t[r];
      v[w] = v[r];
      w++;
    }
    for (int r = half; r < size; r++) {
      t[w] = t[r];
      v[w] = v[r];
      w++;
    }
    layoutVersion++;
    rebuild(t, v, w);
  }

  /**
   * Every point, oldest first, into {@code t} (offsets from base) and {@code v}, which are not
   * the scratch's first-block arrays.
   */
  private void unpack(int[] t, float[] v, Scratch s) {
    int packed = 0;
    if (blocks > 0) {
      // the first block's expired points are skipped: it goes through the scratch
      PackedBlock.decode(words, blockStart[0], s.firstTimes, s.firstValues, 0);
      packed = B - skip;
      System.arraycopy(s.firstTimes, skip, t, 0, packed);
      System.arraycopy(s.firstValues, skip, v, 0, packed);
      for (int b = 1; b < blocks; b++) {
        PackedBlock.decode(words, blockStart[b], t, v, packed);
        packed += B;
      }
    }
    for (int p = 0; p < parts; p++) {
      PackedBlock.decode(partWords, blockStart[blocks + p], PART, t, v, packed);
      packed += PART;
    }
    copyOpen(t, v, packed);
  }

  private static long openPoint(int time, float value) {
    return (long) time << 32 | Float.floatToRawIntBits(value) & 0xffffffffL;
  }

  private static int openTime(long point) {
    return (int) (point >> 32);
  }

  private static float openValue(long point) {
    return Float.intBitsToFloat((int) point);
  }

  /** The open points into {@code t} and {@code v} from {@code at} on. */
  private void copyOpen(int[] t, float[] v, int at) {
    for (int k = 0; k < open; k++) {
      t[at + k] = openTime(openPoints[k]);
      v[at + k] = openValue(openPoints[k]);
    }
  }

  /** Repacks from scratch: {@code n} points, oldest first, times as offsets from base. */
  private void rebuild(int[] t, float[] v, int n) {
    blocks = 0;
    parts = 0;
    wordsUsed = 0;
    skip = 0;
    open = 0;
    size = 0;
    int full = n / B;
    int partsN = (n - full * B) / PART;
    int packed = full * B + partsN * PART;
    words = EMPTY_WORDS;
    partWords = EMPTY_WORDS;
    if (packed == 0) {
      blockStart = EMPTY_STARTS;
    } else {
      int need = 0;
      for (int b = 0; b < full; b++) {
        need += PackedBlock.words(t, v, b * B, B);
      }
      int partNeed = 0;
      for (int p = 0; p < partsN; p++) {
        partNeed += PackedBlock.words(t, v, full * B + p * PART, PART);
      }
      if (need > 0) {
        words = new long[need];
      }
      if (partNeed > 0) {
        partWords = new long[partNeed];
      }
      blockStart = new int[full + partsN + 1];
      for (int b = 0; b < full; b++) {
        blockStart[b] = wordsUsed;
        wordsUsed += PackedBlock.write(t, v, b * B, B, words, wordsUsed);
      }
      int partsUsed = 0;
      for (int p = 0; p < partsN; p++) {
        blockStart[full + p] = partsUsed;
        partsUsed += PackedBlock.write(t, v, full * B + p * PART, PART, partWords, partsUsed);
      }
      blocks = full;
      parts = partsN;
    }
    int rest = n - packed;
    if (openPoints.length < rest) {
      openPoints = new long[PART];
    }
    for (int k = 0; k < rest; k++) {
      openPoints[k] = openPoint(t[packed + k], v[packed + k]);
    }
    open = rest;
    size = n;
    if (n > 0) {
      firstOffset = t[0];
    }
  }

  private int offset(int i) {
    int g = i + skip;
    int whole = blocks * B;
    if (g < whole) {
      return PackedBlock.time(words, blockStart[g / B], g % B);
    }
    int r = g - whole;
    if (r < parts * PART) {
      return PackedBlock.time(partWords, blockStart[blocks + r / PART], r % PART);
    }
    return openTime(openPoints[r - parts * PART]);
  }

  @Override
  public Signal signal() {
    return signal;
  }

  @Override
  public String scope() {
    return scope;
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public long timeMs(int i) {
    return base + offset(i);
  }

  @Override
  public double value(int i) {
    int g = i + skip;
    int whole = blocks * B;
    if (g < whole) {
      return PackedBlock.value(words, blockStart[g / B], g % B);
    }
    int r = g - whole;
    if (r < parts * PART) {
      return PackedBlock.value(partWords, blockStart[blocks + r / PART], r % PART);
    }
    return openValue(openPoints[r - parts * PART]);
  }

  /** Bytes of the arrays this history holds (object headers included), for tests and benches. */
  int arrayBytes() {
    return 16 + 8 * words.length + (partWords.length == 0 ? 0 : 16 + 8 * partWords.length) + 16
        + 4 * blockStart.length + 16 + 8 * openPoints.length;
  }

  @Override
  public long firstPosition() {
    return expiredCount;
  }

  @Override
  public long layoutVersion() {
    return layoutVersion;
  }

  /** Arrays to repack in, per thread: repacking allocated them afresh every whole block. */
  private static final class Scratch {
    final int[] times = new int[CAPACITY];
    final float[] values = new float[CAPACITY];
    final int[] firstTimes = new int[B];
    final float[] firstValues = new float[B];
  }
}
