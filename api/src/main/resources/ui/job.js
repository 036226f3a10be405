// Job page: the diagnosis card and, for the key signals, observed values against the baseline
// band with anomaly periods shaded. ?job=NAME, optional ?at=RFC3339 centres the charts on a time,
// optional ?range=6h|24h|7d.
"use strict";

(() => {
  const KEY_SIGNALS = [
    ["checkpoint_duration", "Checkpoint duration"],
    ["checkpoint_size", "Checkpoint size"],
    ["checkpoint_age", "Time since last checkpoint"],
    ["checkpoint_failures", "Checkpoint failures"],
    ["checkpoint_start_delay", "Checkpoint start delay"],
    ["disk_write_iops", "Disk write IOPS"],
    ["disk_read_iops", "Disk read IOPS"],
    ["disk_utilization", "Disk utilisation"],
    ["rocksdb_pending_compaction", "RocksDB pending compaction"],
    ["gc_time", "GC time"],
  ];
  const RANGES = {"1h": 3600e3, "6h": 6 * 3600e3, "24h": 24 * 3600e3, "7d": 7 * 24 * 3600e3};
  const SCOPES_PER_SIGNAL = 4;
  const REFRESH_MS = 10000;
  const job = CPD.param("job");
  const at = CPD.param("at");
  const range = RANGES[CPD.param("range")] ? CPD.param("range") : "6h";

  function pageLink(r) {
    return CPD.jobLink(job, at) + "&range=" + r;
  }

  function forecast(hours) {
    if (hours === null || hours === undefined) return null;
    const text = hours < 1 ? `~${Math.max(1, Math.round(hours * 60))} min`
        : hours < 48 ? `~${Math.round(hours)} h` : `~${Math.round(hours / 24)} d`;
    return CPD.el("p", {class: "forecast", "data-hours": hours},
        "Checkpoints time out in ", CPD.el("strong", {text: text}), " at the current trend.");
  }

  // A docs reference may be a web address or a path in the project's repository.
  function docs(ref) {
    if (!ref) return null;
    return /^https?:\/\//.test(ref)
        ? CPD.el("p", {class: "docs"}, CPD.el("a", {href: ref, rel: "noreferrer", text: "More"}))
        : CPD.el("p", {class: "docs muted"}, "More: ", CPD.el("code", {text: ref}),
            " in the Checkpoint Doctor repository");
  }

  function diagnosisCard(d, status) {
    const card = document.getElementById("diagnosis");
    if (!d) {
      card.dataset.cause = "";
      card.className = "card diagnosis-card healthy";
      CPD.replace(card, CPD.el("h2", {text: "Diagnosis"}), CPD.el("p", {class: "muted",
        text: status === "learning" ? "Still learning this job's baselines; nothing to diagnose yet."
            : "No open anomaly, so nothing to diagnose."}));
      return;
    }
    card.dataset.cause = d.cause;
    card.className = "card diagnosis-card sick" + (d.checkpointsFailing ? " failing" : "");
    const others = (d.causes || []).slice(1);
    CPD.replace(card, 
        CPD.el("h2", {text: "Diagnosis"}),
        CPD.el("div", {class: "diag-head"},
            CPD.el("span", {class: "cause", "data-cause": d.cause,
              text: d.cause === "unknown" ? "Unknown cause" : d.cause.replace(/_/g, " ")}),
            CPD.el("span", {class: "confidence", "data-confidence": d.confidence,
              text: Math.round(d.confidence * 100) + " % confidence"}),
            CPD.el("span", {class: "muted since", text: "since " + CPD.time(d.since)}),
            d.signal ? CPD.el("span", {class: "muted", text: "seen in " + d.signal}) : null),
        d.checkpointsFailing ? CPD.el("p", {class: "failing-note",
          text: "Checkpoints are already failing or expiring."}) : null,
        forecast(d.hoursToTimeout),
        CPD.el("h3", {text: "Evidence"}),
        (d.evidence && d.evidence.length)
            ? CPD.el("ul", {class: "evidence"}, d.evidence.map(e => CPD.el("li",
                {"data-signal": e.signal, "data-scope": e.scope, text: e.sentence})))
            : CPD.el("p", {class: "muted", text: "No evidence sentences."}),
        d.remedy ? CPD.el("h3", {text: "Remedy"}) : null,
        d.remedy ? CPD.el("p", {class: "remedy", text: d.remedy}) : null,
        docs(d.docs),
        others.length ? CPD.el("p", {class: "muted others"}, "Also considered: ",
            others.map(c => `${c.cause.replace(/_/g, " ")} (${Math.round(c.confidence * 100)} %)`)
                .join(", ")) : null);
  }

  function anomaliesTable(anomalies, baselines) {
    const units = new Map(baselines.map(b => [b.signal, b.unit]));
    document.querySelector("#job-anomalies tbody").replaceChildren(...anomalies.map(a => {
      const u = units.get(a.signal);
      return CPD.el("tr", {class: "anomaly-row", "data-state": a.state, "data-signal": a.signal},
          CPD.el("td", {}, CPD.el("span", {class: "state state-" + a.state, text: a.state})),
          CPD.el("td", {}, CPD.el("a", {href: CPD.jobLink(job, a.startedAt) + "&range=" + range,
            text: a.signal})),
          CPD.el("td", {text: a.scope}),
          CPD.el("td", {text: CPD.time(a.startedAt)}),
          CPD.el("td", {text: a.endedAt ? CPD.time(a.endedAt) : "open"}),
          CPD.el("td", {class: "num", text: CPD.value(a.observed, u)}),
          CPD.el("td", {class: "num",
            text: CPD.value(a.lower, u) + " – " + CPD.value(a.upper, u)}));
    }));
  }

  // Which charts: key signals first, then the diagnosis' own signal if it is not one of them.
  function chartList(baselines, diagnosis) {
    const wanted = KEY_SIGNALS.slice();
    if (diagnosis && diagnosis.signal && !wanted.some(k => k[0] === diagnosis.signal)) {
      wanted.unshift([diagnosis.signal, diagnosis.signal.replace(/_/g, " ")]);
    }
    const list = [];
    const missing = [];
    for (const [signal, title] of wanted) {
      const scopes = baselines.filter(b => b.signal === signal).map(b => b.scope)
          .sort((a, b) => (a === "job" ? -1 : b === "job" ? 1 : a.localeCompare(b)));
      if (!scopes.length) missing.push(title);
      scopes.slice(0, SCOPES_PER_SIGNAL).forEach(scope => list.push({signal, title, scope,
        more: scopes.length > SCOPES_PER_SIGNAL ? scopes.length - SCOPES_PER_SIGNAL : 0}));
    }
    return {list, missing};
  }

  function timeWindow(lastSeen) {
    const span = RANGES[range];
    const end = at ? Date.parse(at) + span / 2 : Date.parse(lastSeen || new Date().toISOString())
        + 60e3;
    return {from: end - span, to: end};
  }

  async function loadCharts(list, win) {
    const q = `from=${new Date(win.from).toISOString()}&to=${new Date(win.to).toISOString()}`;
    const all = await Promise.all(list.map(c => CPD.api(`/api/v1/jobs/${encodeURIComponent(job)}`
        + `/series?signal=${c.signal}&scope=${encodeURIComponent(c.scope)}&points=300&${q}`)
        .then(s => ({...c, series: s}), e => ({...c, error: e}))));
    // Without ?at, shared axes start at the oldest point shown, so a young job fills the width.
    let first = win.to;
    for (const c of all) {
      if (c.series && c.series.points.length) first = Math.min(first, Date.parse(c.series.points[0].start));
    }
    const from = at || first >= win.to ? win.from : Math.max(win.from, first - 60e3);
    return all.map(c => c.series ? {...c, series: {...c.series,
      from: new Date(from).toISOString()}} : c);
  }

  function chartCard(c) {
    const s = c.series;
    const lastPoint = s && s.points.length ? s.points[s.points.length - 1] : null;
    const open = s && s.anomalies.some(a => a.state === "open");
    return CPD.el("div", {class: "card chart-card" + (open ? " has-open" : ""),
      "data-signal": c.signal, "data-scope": c.scope},
        CPD.el("div", {class: "chart-title"},
            CPD.el("h3", {text: c.title}),
            c.scope !== "job" ? CPD.el("span", {class: "scope", text: c.scope}) : null,
            CPD.el("span", {class: "latest"}, lastPoint ? CPD.value(lastPoint.last, s.unit) : ""),
            c.more ? CPD.el("span", {class: "muted", text: `+${c.more} more scopes`}) : null),
        c.error ? CPD.el("p", {class: "error", text: c.error.message})
            : CpdChart.render(s, {at}),
        CPD.el("div", {class: "legend"},
            CPD.el("span", {class: "key key-observed", text: "observed"}),
            CPD.el("span", {class: "key key-band", text: "baseline band"}),
            CPD.el("span", {class: "key key-anomaly", text: "anomaly"})));
  }

  async function refresh() {
    try {
      const detail = await CPD.api("/api/v1/jobs/" + encodeURIComponent(job));
      document.getElementById("job-status").replaceChildren(CPD.statusBadge(detail.status));
      document.getElementById("job-seen").textContent = "last seen " + CPD.time(detail.lastSeen);
      document.getElementById("job-name").title = CPD.identity(detail) || "";
      document.body.dataset.status = detail.status;
      diagnosisCard(detail.diagnosis, detail.status);
      const {list, missing} = chartList(detail.baselines, detail.diagnosis);
      const charts = await loadCharts(list, timeWindow(detail.lastSeen));
      document.getElementById("charts").replaceChildren(...charts.map(chartCard));
      document.getElementById("missing").textContent = missing.length
          ? "No data for: " + missing.join(", ") + "." : "";
      const anomalies = (await CPD.api("/api/v1/anomalies?job=" + encodeURIComponent(job)))
          .anomalies;
      anomaliesTable(anomalies, detail.baselines);
      document.getElementById("error").hidden = true;
      document.body.dataset.loaded = "true";
      CPD.stamp();
    } catch (e) {
      const err = document.getElementById("error");
      err.textContent = e.message;
      err.hidden = false;
      CPD.stamp(e);
    }
  }

  if (!job) {
    location.replace("/ui/");
    return;
  }
  document.title = job + " · Checkpoint Doctor";
  document.getElementById("job-name").textContent = job;
  CPD.replace(document.getElementById("ranges"), ...Object.keys(RANGES).map(r =>
      CPD.el("a", {href: pageLink(r), class: r === range ? "current" : null, text: r})),
      at ? CPD.el("span", {class: "muted at", text: "around " + CPD.time(at)}) : null,
      at ? CPD.el("a", {href: CPD.jobLink(job) + "&range=" + range, text: "now"}) : null);
  // Centred on a past time the page is a still picture; live, it follows new data.
  (async function loop() {
    await refresh();
    if (!at) setTimeout(loop, REFRESH_MS);
  })();
})();
