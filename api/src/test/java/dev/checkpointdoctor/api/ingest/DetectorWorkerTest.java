package dev.checkpointdoctor.api.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.checkpointdoctor.api.bench.BodyFactory;
import dev.checkpointdoctor.api.bench.FlinkFleet;
import dev.checkpointdoctor.detector.catalog.SignalCatalog;
import dev.checkpointdoctor.detector.model.DetectorSettings;
import dev.checkpointdoctor.detector.pipeline.Detector;
import dev.checkpointdoctor.ingest.remotewrite.DecodeLimits;
import dev.checkpointdoctor.ingest.remotewrite.DecodedWrite;
import dev.checkpointdoctor.ingest.remotewrite.RemoteWriteDecoder;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DetectorWorkerTest {
  @Test
  void requestsWaitingInTheQueueAreOneDetectorBatch() throws Exception {
    FlinkFleet fleet = new FlinkFleet(1, 2, 1);
    List<BodyFactory.Body> bodies = new BodyFactory().round(fleet.series(), 0,
        1_796_000_000_000L, 200);
    assertThat(bodies.size()).isGreaterThanOrEqualTo(3);
    RemoteWriteDecoder decoder =
        new RemoteWriteDecoder(DecodeLimits.defaults(), SignalCatalog.defaults());
    List<DecodedWrite> writes = new ArrayList<>();
    long samples = 0;
    for (BodyFactory.Body b : bodies) {
      DecodedWrite w = decoder.decode(b.bytes(), 0, b.bytes().length);
      writes.add(w);
      samples += w.acceptedSampleCount();
    }
    Detector detector = new Detector(SignalCatalog.defaults(), DetectorSettings.defaults());
    DetectorWorker worker = new DetectorWorker(detector, 10_000_000);
    // The detector's lock held here stalls the worker inside its first batch at the latest, so
    // every request offered meanwhile is waiting in the queue when it next looks.
    synchronized (detector) {
      for (DecodedWrite w : writes) {
        assertThat(worker.offer(w)).isTrue();
      }
    }
    worker.close(); // processes everything accepted, then joins the thread
    assertThat(worker.processedRequests()).isEqualTo(writes.size());
    assertThat(worker.processedBatches()).isBetween(1L, 2L);
    assertThat(worker.queuedSamples()).isZero();
    assertThat(detector.stats().processed()).isPositive().isLessThanOrEqualTo(samples);
    assertThat(detector.trackedSeries()).isEqualTo(fleet.usedSeries());
  }
}
