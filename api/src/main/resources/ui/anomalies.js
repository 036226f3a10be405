// Anomalies page: every anomaly, filtered by job, state and signal (kept in the address so a
// filtered list can be shared); each row links to its job page centred on its start.
"use strict";

(() => {
  const REFRESH_MS = 10000;
  const job = document.getElementById("filter-job");
  const state = document.getElementById("filter-state");
  const signal = document.getElementById("filter-signal");
  let all = [];

  job.value = CPD.param("job") || "";
  state.value = CPD.param("state") || "";
  const wantedSignal = CPD.param("signal") || "";

  function syncOptions() {
    const signals = [...new Set(all.map(a => a.signal))].sort();
    if (wantedSignal && !signals.includes(wantedSignal)) signals.push(wantedSignal);
    const current = signal.value || wantedSignal;
    signal.replaceChildren(CPD.el("option", {value: "", text: "any"}),
        ...signals.map(s => CPD.el("option", {value: s, text: s})));
    signal.value = current;
    document.getElementById("jobs").replaceChildren(...[...new Set(all.map(a => a.job))].sort()
        .map(j => CPD.el("option", {value: j})));
  }

  function render() {
    const f = {job: job.value.trim(), state: state.value, signal: signal.value};
    const q = new URLSearchParams(Object.entries(f).filter(([, v]) => v));
    history.replaceState(null, "", location.pathname + (q.toString() ? "?" + q : ""));
    const shown = all.filter(a => (!f.job || a.job.includes(f.job))
        && (!f.state || a.state === f.state) && (!f.signal || a.signal === f.signal));
    document.getElementById("count").textContent = `${shown.length} of ${all.length}`;
    document.querySelector("#anomalies-table tbody").replaceChildren(...shown.map(a =>
        CPD.el("tr", {class: "anomaly-row", "data-id": a.id, "data-job": a.job,
          "data-state": a.state, "data-signal": a.signal},
            CPD.el("td", {}, CPD.el("span", {class: "state state-" + a.state, text: a.state})),
            CPD.el("td", {}, CPD.el("a", {class: "at-link", href: CPD.jobLink(a.job, a.startedAt),
              text: a.job})),
            CPD.el("td", {text: a.signal}),
            CPD.el("td", {text: a.scope}),
            CPD.el("td", {text: CPD.time(a.startedAt)}),
            CPD.el("td", {text: a.endedAt ? CPD.time(a.endedAt) : "open"}),
            CPD.el("td", {class: "num observed", text: CPD.value(a.observed, a.unit)}),
            CPD.el("td", {class: "num expected", text: CPD.value(a.expected, a.unit)}),
            CPD.el("td", {class: "num band",
              text: CPD.value(a.lower, a.unit) + " – " + CPD.value(a.upper, a.unit)}),
            CPD.el("td", {class: "cause", "data-cause": a.causes.length ? a.causes[0].cause : "",
              text: a.causes.length ? a.causes[0].cause.replace(/_/g, " ") : "–"}))));
  }

  async function refresh() {
    try {
      all = (await CPD.api("/api/v1/anomalies")).anomalies;
      syncOptions();
      render();
      document.body.dataset.loaded = "true";
      CPD.stamp();
    } catch (e) {
      CPD.stamp(e);
    }
  }

  for (const input of [job, state, signal]) input.addEventListener("input", render);
  (async function loop() {
    await refresh();
    setTimeout(loop, REFRESH_MS);
  })();
})();
