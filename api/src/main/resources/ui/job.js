// Job page: the diagnosis card and, for the key signals, observed values against the baseline
// band with anomaly periods shaded. ?job=NAME, optional ?at=RFC3339 centres the charts on a time,
// optional ?range=6h|24h|7d.
"use strict";

(() => {
  const KEY_SIGNALS = [
    ["checkpoint_duration", "Checkpoint duration"],
    ["checkpoint_size", "Checkpoint size"],
    ["checkpoint_age", "Time since last checkpoint"],
    ["checkpoint_busy_share", "Share of time checkpointing"],
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
  // Signals whose every scope is charted (?expand=disk_write_iops,gc_time), not only the first.
  const expanded = new Set((CPD.param("expand") || "").split(",").filter(s => s));

  function pageLink(r) {
    return CPD.jobLink(job, at) + "&range=" + r + expandParam(expanded);
  }

  function expandParam(set) {
    return set.size ? "&expand=" + encodeURIComponent([...set].join(",")) : "";
  }

  // This page with one signal's scopes all shown (or folded again).
  function expandLink(signal, open) {
    const next = new Set(expanded);
    if (open) next.add(signal); else next.delete(signal);
    return CPD.jobLink(job, at) + "&range=" + range + expandParam(next);
  }

  function forecast(hours) {
    if (hours === null || hours === undefined) return null;
    const text = hours < 1 ? `~${Math.max(1, Math.round(hours * 60))} min`
        : hours < 48 ? `~${Math.round(hours)} h` : `~${Math.round(hours / 24)} d`;
    return CPD.el("p", {class: "forecast", "data-hours": hours},
        "Checkpoints time out in ", CPD.el("strong", {text: text}), " at the current trend.");
  }

  // The cause's runbook, served by this service as a web page.
  function runbook(d) {
    if (!d.runbook) return null;
    return CPD.el("p", {class: "docs"}, CPD.el("a", {class: "runbook", href: d.runbook,
      text: "Runbook: " + causeName(d.cause)}),
        " (what it is, how to confirm it, what to do)");
  }

  function causeName(cause) {
    return cause === "unknown" ? "unknown cause" : cause.replace(/_/g, " ");
  }

  function diagnosisCard(d, detail) {
    const card = document.getElementById("diagnosis");
    if (!d) {
      card.dataset.cause = "";
      card.className = "card diagnosis-card healthy";
      const learning = detail.status === "learning";
      CPD.replace(card, CPD.el("h2", {text: "Diagnosis"}), CPD.el("p", {class: "muted",
        text: learning ? "Still learning what is normal for this job; nothing to diagnose yet."
            : "No open anomaly, so nothing to diagnose."}),
          learning ? CPD.el("div", {class: "learning"},
              CPD.el("progress", {max: Math.max(1, detail.baselinesTotal),
                value: detail.baselinesReady}),
              CPD.learning(detail)) : null);
      return;
    }
    card.dataset.cause = d.cause;
    card.className = "card diagnosis-card sick" + (d.checkpointsFailing ? " failing" : "");
    const others = (d.causes || []).slice(1);
    CPD.replace(card, 
        CPD.el("h2", {text: "Diagnosis"}),
        CPD.el("div", {class: "diag-head"},
            CPD.severityBadge(d.severity),
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
        runbook(d),
        others.length ? CPD.el("p", {class: "muted others"}, "Also considered: ",
            others.map((c, i) => [i ? ", " : "", c.runbook
                ? CPD.el("a", {href: c.runbook, text: causeName(c.cause)}) : causeName(c.cause),
              ` (${Math.round(c.confidence * 100)} %)`])) : null,
        ...(d.missingSources || []).map(m => CPD.el("p", {class: "muted missing-source",
          "data-source": m.source, text: `Not judged: ${causeName(m.cause)}, ${m.source} `
            + `missing. ${m.why} Fix: ${m.fix}`})));
  }

  function anomaliesTable(anomalies) {
    document.querySelector("#job-anomalies tbody").replaceChildren(...anomalies.map(a => {
      const u = a.unit;
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
      if (!scopes.length) missing.push([signal, title]);
      const all = expanded.has(signal);
      const shown = all ? scopes : scopes.slice(0, SCOPES_PER_SIGNAL);
      shown.forEach((scope, i) => list.push({signal, title, scope,
        historySince: (baselines.find(b => b.signal === signal && b.scope === scope) || {})
            .historySince,
        more: !all && i === 0 && scopes.length > SCOPES_PER_SIGNAL
            ? scopes.length - SCOPES_PER_SIGNAL : 0,
        fold: all && i === 0 && scopes.length > SCOPES_PER_SIGNAL}));
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
    // Shared axes span the data shown, so a young job fills the width: they start at the oldest
    // point and, centred on a time (an alert's link), end at the newest one, keeping that time
    // inside.
    let first = win.to, last = win.from;
    for (const c of all) {
      if (c.series && c.series.points.length) {
        first = Math.min(first, Date.parse(c.series.points[0].start));
        last = Math.max(last, Date.parse(c.series.points[c.series.points.length - 1].end));
      }
    }
    const atMs = at ? Date.parse(at) : null;
    let from = first >= win.to ? win.from : Math.max(win.from, first - 60e3);
    let to = win.to;
    if (atMs !== null && last > win.from) to = Math.min(win.to, Math.max(last + 60e3, atMs + 60e3));
    if (atMs !== null) from = Math.min(from, atMs - 60e3);
    return all.map(c => c.series ? {...c, series: {...c.series,
      from: new Date(from).toISOString(), to: new Date(to).toISOString()}} : c);
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
            c.historySince ? CPD.el("span", {class: "muted history-since",
              text: "learned from history since " + CPD.time(c.historySince)}) : null,
            c.more ? CPD.el("a", {class: "more-scopes", href: expandLink(c.signal, true),
              text: `+${c.more} more scope${c.more === 1 ? "" : "s"}`}) : null,
            c.fold ? CPD.el("a", {class: "more-scopes", href: expandLink(c.signal, false),
              text: "show fewer"}) : null),
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
      diagnosisCard(detail.diagnosis, detail);
      const {list, missing} = chartList(detail.baselines, detail.diagnosis);
      const charts = await loadCharts(list, timeWindow(detail.lastSeen));
      document.getElementById("charts").replaceChildren(...charts.map(chartCard));
      const nodeMissing = missing.some(([signal]) => /^disk_/.test(signal));
      document.getElementById("missing").textContent = (missing.length
          ? "No data for: " + missing.map(m => m[1]).join(", ") + "." : "")
          + (nodeMissing ? " Disk series reach a job through its TaskManagers' host label "
              + "(node_exporter's instance host or node label must match it); when the names "
              + "differ, map them with --host-alias FLINK_HOST=NODE." : "");
      const anomalies = (await CPD.api("/api/v1/anomalies?job=" + encodeURIComponent(job)))
          .anomalies;
      anomaliesTable(anomalies);
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
