package dev.checkpointdoctor.eval.scenario;

import java.util.List;
import java.util.stream.LongStream;

/**
 * Which seeds of a family may be tuned on and which are kept for judging. Rules and detector
 * settings are adjusted while looking at the {@link #TRAIN} corpora job by job; the {@link
 * #HELD_OUT} corpora are only ever reported per cause and in total (the accuracy command hides
 * their per-job lines unless asked with {@code --per-job}), so a figure on them says how the
 * tuning carries over.
 */
public final class EvaluationSeeds {
  /**
   * Seeds 3-5 joined on 2026-12-03, when the held-out figures showed that tuning on two seeds did
   * not carry over: more train jobs to look at, the held-out seeds still never looked at. Seeds
   * 6-10 joined on 2026-12-06, before anyone had run them, for the same reason (held-out growth
   * named within 2 h 0/15 against 6/15 on seeds 1-5). Seeds 11-20 joined on 2026-12-06 (sixth
   * stop), before anyone had run them: the held-out healthy controls opened anomalies on 5 of
   * 21 jobs while the train census, tuned on job by job, was down to 5 of 70, so the train
   * controls no longer showed what opens anomalies on controls never looked at. Seeds 21-30
   * joined on 2026-12-07 before anyone had run them: seeds 11-20 found the first-day mechanisms
   * (19 of 70), and the fixes for them are first judged on controls no one tuned on. Seeds
   * 31-40 joined the same night, unrun: the held-out controls' anomalies sit on a few jobs with
   * dozens each, which no train control up to seed 30 shows; more controls to look for it in.
   * Seeds 41-60 joined on 2026-12-07 (eighth stop), unrun: seeds 31-40 did not show it either.
   * Seeds 61-80 joined on 2026-12-07 (ninth stop), unrun: a held-out seed still has a healthy
   * job with dozens of anomalies and no train control up to seed 60 has more than a few.
   */
  public static final List<Long> TRAIN = LongStream.rangeClosed(1, 80).boxed().toList();
  /** What {@code accuracy --family} runs without {@code --seeds}: the first two train seeds. */
  public static final List<Long> DEFAULT = List.of(1L, 2L);
  /**
   * Seeds 104-106 joined on 2026-12-07 (twelfth stop), before anyone had run them: a rule
   * reverted for one more alert on a held-out healthy job of seeds 101-103 was changed after
   * that figure, so 101-103 no longer judge it unseen.
   */
  public static final List<Long> HELD_OUT = List.of(101L, 102L, 103L, 104L, 105L, 106L);

  private EvaluationSeeds() {}

  public static boolean train(long seed) {
    return TRAIN.contains(seed);
  }

  public static boolean heldOut(long seed) {
    return HELD_OUT.contains(seed);
  }

  /** "train", "held-out" or "other". */
  public static String role(long seed) {
    return train(seed) ? "train" : heldOut(seed) ? "held-out" : "other";
  }
}
