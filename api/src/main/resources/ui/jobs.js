// Jobs page: every job, its status and current diagnosis; sortable; refreshes itself.
"use strict";

(() => {
  const REFRESH_MS = 5000;
  const DIAGNOSIS_FETCHES = 4;
  const SEVERITY = {anomalous: 0, learning: 2, ok: 1};
  let sort = {key: "status", dir: 1};
  let rows = [];
  // The service counts unjoined samples since it started; what matters is whether they still
  // come: [time, count] of the last minute's refreshes.
  const UNJOINED_WINDOW_MS = 60e3;
  const unjoinedSeen = [];
  const pageStart = Date.now();
  const diagnoses = new Map();

  // Samples that joined no job in about the last minute (before a minute of watching: since the
  // service started), or null when none came.
  function unjoinedGrowing() {
    if (!unjoinedSeen.length) return null;
    const newest = unjoinedSeen[unjoinedSeen.length - 1][1];
    const grown = Date.now() - pageStart < UNJOINED_WINDOW_MS ? newest
        : newest - unjoinedSeen[0][1];
    return grown > 0 ? grown : null;
  }

  function compare(a, b) {
    const k = sort.key;
    let va = a[k], vb = b[k];
    if (k === "status") { va = SEVERITY[va]; vb = SEVERITY[vb]; }
    if (va === vb) return a.job.localeCompare(b.job);
    if (va === null || va === undefined) return 1;
    if (vb === null || vb === undefined) return -1;
    return (va < vb ? -1 : 1) * sort.dir;
  }

  function render() {
    const tbody = document.querySelector("#jobs-table tbody");
    const now = Date.now();
    tbody.replaceChildren(...rows.slice().sort(compare).map(j => CPD.el("tr",
        {class: "job-row", "data-job": j.job, "data-status": j.status},
        CPD.el("td", {class: "job", title: CPD.identity(j)},
            CPD.el("a", {href: CPD.jobLink(j.job), text: j.job})),
        CPD.el("td", {class: "status-cell"}, CPD.statusBadge(j.status),
            j.status === "learning" ? CPD.learning(j) : null),
        CPD.el("td", {class: "cause", "data-cause": j.cause || ""}, j.cause
            ? [CPD.severityBadge(j.severity),
              CPD.el("span", {class: "cause-name", text: j.cause.replace(/_/g, " ")})] : "–"),
        CPD.el("td", {class: "since", title: j.since || ""},
            j.since ? CPD.time(j.since) : "–"),
        CPD.el("td", {class: "num open-anomalies", text: j.openAnomalies}),
        CPD.el("td", {class: "last-seen", title: CPD.time(j.lastSeen)},
            CPD.ago(j.lastSeen, now) || CPD.time(j.lastSeen)))));
    for (const th of document.querySelectorAll("#jobs-table th")) {
      th.classList.toggle("sorted", th.dataset.sort === sort.key);
      th.dataset.dir = th.dataset.sort === sort.key ? (sort.dir > 0 ? "asc" : "desc") : "";
    }
    const counts = {anomalous: 0, ok: 0, learning: 0};
    rows.forEach(r => counts[r.status] = (counts[r.status] || 0) + 1);
    document.getElementById("summary").textContent = `${rows.length} job${rows.length === 1 ? "" : "s"}: `
        + `${counts.anomalous} anomalous, ${counts.ok} ok, ${counts.learning} learning`;
    document.getElementById("empty").hidden = rows.length > 0;
    const unjoined = document.getElementById("unjoined");
    const growing = unjoinedGrowing();
    unjoined.hidden = growing === null;
    if (growing !== null) {
      unjoined.querySelector(".count").textContent = growing.toLocaleString("en");
    }
  }

  // Only anomalous jobs have a diagnosis, so only they cost a request each, a few at a time.
  async function fetchDiagnoses(jobs) {
    const queue = jobs.filter(j => j.status === "anomalous").map(j => j.job);
    const wanted = new Set(queue);
    for (const k of [...diagnoses.keys()]) if (!wanted.has(k)) diagnoses.delete(k);
    async function worker() {
      while (queue.length) {
        const job = queue.shift();
        try {
          const d = (await CPD.api("/api/v1/jobs/" + encodeURIComponent(job))).diagnosis;
          diagnoses.set(job, d);
        } catch (e) {
          diagnoses.delete(job);
        }
      }
    }
    await Promise.all(Array.from({length: DIAGNOSIS_FETCHES}, worker));
  }

  async function refresh() {
    try {
      const answer = await CPD.api("/api/v1/jobs");
      const jobs = answer.jobs;
      const now = Date.now();
      unjoinedSeen.push([now, answer.unjoinedSamples || 0]);
      while (unjoinedSeen.length > 1 && unjoinedSeen[1][0] <= now - UNJOINED_WINDOW_MS) {
        unjoinedSeen.shift();
      }
      await fetchDiagnoses(jobs);
      rows = jobs.map(j => {
        const d = diagnoses.get(j.job);
        return {...j, cause: d ? d.cause : null, since: d ? d.since : null,
          severity: d ? d.severity : null};
      });
      render();
      CPD.stamp();
    } catch (e) {
      CPD.stamp(e);
    }
  }

  for (const th of document.querySelectorAll("#jobs-table th[data-sort]")) {
    th.addEventListener("click", () => {
      sort = sort.key === th.dataset.sort ? {key: sort.key, dir: -sort.dir}
          : {key: th.dataset.sort, dir: th.dataset.sort === "openAnomalies" ? -1 : 1};
      render();
    });
  }
  document.body.dataset.refreshMs = REFRESH_MS;
  // Next refresh after this one ends, so a slow service never gets overlapping rounds.
  (async function loop() {
    await refresh();
    setTimeout(loop, REFRESH_MS);
  })();
})();
