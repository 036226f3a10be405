// Job page, Flink REST card: the job's checkpoint configuration and the last remarkable
// checkpoint's slowest subtasks, as the JobManager's REST API reported them (flinkRest in
// GET /api/v1/jobs/{job}). Self-contained: reads the job itself and stays hidden while the
// service has no facts for the job (no --flink-rest-url, or no JobManager runs it).
"use strict";

(() => {
  const REFRESH_MS = 10000;
  const job = CPD.param("job");
  const card = document.getElementById("flink-rest");
  if (!job || !card) return;

  function ms(v) {
    if (v === null || v === undefined) return "–";
    if (v < 1000) return Math.round(v) + " ms";
    if (v < 100e3) return (v / 1000).toFixed(v < 10e3 ? 1 : 0) + " s";
    if (v < 180 * 60e3) return (v / 60e3).toFixed(v < 600e3 ? 1 : 0) + " min";
    return (v / 3600e3).toFixed(1) + " h";
  }

  function row(label, value) {
    return CPD.el("tr", {}, CPD.el("th", {text: label}), CPD.el("td", {text: value}));
  }

  function render(rest, diagnosis) {
    const c = rest.checkpointConfig || {};
    const last = rest.lastCheckpoint;
    const forecastNote = diagnosis && diagnosis.timeoutSource === "flink-rest"
        ? `Forecasts use this job's timeout (${ms(diagnosis.timeoutMs)}).` : null;
    CPD.replace(card,
        CPD.el("h2", {text: "Flink checkpoint facts"}),
        CPD.el("p", {class: "muted"}, `From ${rest.endpoint}, job ${rest.jobId}, read `
            + CPD.time(rest.observedAt) + "."),
        CPD.el("table", {class: "facts", "data-facts": "config"},
            row("Timeout", ms(c.timeoutMs)),
            row("Interval", ms(c.intervalMs)),
            row("Min pause", ms(c.minPauseMs)),
            row("Max concurrent", c.maxConcurrent ?? "–"),
            row("Unaligned", c.unaligned === null || c.unaligned === undefined ? "–"
                : c.unaligned ? "yes" : "no"),
            row("State backend", c.stateBackend || "–"),
            row("Checkpoint storage", c.checkpointDir || c.checkpointStorage || "–"),
            row("RocksDB local dir", (c.rocksDbLocalDirs || []).join(", ") || "default")),
        forecastNote ? CPD.el("p", {class: "muted", text: forecastNote}) : null,
        last ? CPD.el("h3", {text: `Checkpoint ${last.id}: ${last.status.replace(/_/g, " ")}`
            + (last.endToEndMs !== null ? ` after ${ms(last.endToEndMs)}` : "")
            + (last.acknowledged !== null && last.subtasks !== null
                ? `, ${last.acknowledged} of ${last.subtasks} subtasks acknowledged` : "")}) : null,
        last && last.failureMessage ? CPD.el("p", {class: "failing-note",
          text: last.failureMessage}) : null,
        last ? CPD.el("table", {class: "list facts-subtasks"},
            CPD.el("thead", {}, CPD.el("tr", {}, ...["Subtask", "Acknowledged", "End to end",
              "Barrier", "Alignment", "Sync", "Async", "Slowest phase"].map(h =>
                CPD.el("th", {text: h})))),
            CPD.el("tbody", {}, ...last.slowestSubtasks.map(s => CPD.el("tr", {
              class: "subtask-row", "data-acknowledged": String(s.acknowledged),
              "data-phase": s.slowestPhase || ""},
                CPD.el("td", {text: `${s.vertex} ${s.subtask}`}),
                CPD.el("td", {text: s.acknowledged ? "yes" : "never"}),
                CPD.el("td", {class: "num", text: ms(s.endToEndMs)}),
                CPD.el("td", {class: "num", text: ms(s.startDelayMs)}),
                CPD.el("td", {class: "num", text: ms(s.alignmentMs)}),
                CPD.el("td", {class: "num", text: ms(s.syncMs)}),
                CPD.el("td", {class: "num", text: ms(s.asyncMs)}),
                CPD.el("td", {text: s.slowestPhase ? s.slowestPhase.replace(/_/g, " ") : "–"})))))
            : CPD.el("p", {class: "muted", text: "No failed, long-running or unusually slow "
                + "checkpoint recently."}));
  }

  async function refresh() {
    try {
      const detail = await CPD.api("/api/v1/jobs/" + encodeURIComponent(job));
      card.hidden = !detail.flinkRest;
      if (detail.flinkRest) render(detail.flinkRest, detail.diagnosis);
    } catch (e) {
      card.hidden = true; // job.js reports errors
    }
  }

  (async function loop() {
    await refresh();
    if (!CPD.param("at")) setTimeout(loop, REFRESH_MS);
  })();
})();
