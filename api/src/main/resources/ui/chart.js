// SVG time chart of one series: observed values against the shaded baseline band, anomaly
// periods shaded. Written for this project; draws what /api/v1/jobs/{job}/series returns.
"use strict";

const CpdChart = (() => {
  const NS = "http://www.w3.org/2000/svg";
  const W = 720, H = 190, L = 70, R = 12, T = 10, B = 24;

  function s(tag, attrs, ...children) {
    const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v !== null && v !== undefined) e.setAttribute(k, v);
    }
    for (const c of children) e.append(c);
    return e;
  }

  function mid(p) {
    return (Date.parse(p.start) + Date.parse(p.end)) / 2;
  }

  // Splits points into runs where every named field is known: a gap in data is a gap in ink.
  function runs(points, fields) {
    const out = [];
    let cur = [];
    for (const p of points) {
      if (fields.every(f => p[f] !== null && p[f] !== undefined)) {
        cur.push(p);
      } else if (cur.length) {
        out.push(cur);
        cur = [];
      }
    }
    if (cur.length) out.push(cur);
    return out;
  }

  function niceStep(span) {
    const raw = span / 4;
    const mag = Math.pow(10, Math.floor(Math.log10(raw)));
    for (const m of [1, 2, 2.5, 5, 10]) {
      if (m * mag >= raw) return m * mag;
    }
    return 10 * mag;
  }

  function timeLabel(ms, spanMs) {
    const iso = new Date(ms).toISOString();
    return spanMs > 36 * 3600e3 ? iso.slice(5, 10) + " " + iso.slice(11, 16) : iso.slice(11, 16);
  }

  function render(series, opts) {
    const from = Date.parse(series.from), to = Date.parse(series.to);
    const pts = series.points;
    const known = f => pts.map(p => p[f]).filter(v => v !== null && isFinite(v));
    // The floor follows the observed values only: a band reaching below zero for a quantity
    // that never goes negative (an age, a count) is clipped at the axis, not given room.
    const lows = known("min");
    const highs = known("max").concat(known("upper"));
    let lo = lows.length ? Math.min(0, ...lows) : 0;
    let hi = highs.length ? Math.max(lo, ...highs) : 1;
    if (hi <= lo) hi = lo + 1;
    hi += (hi - lo) * 0.08;
    const x = t => L + (Math.max(from, Math.min(to, t)) - from) / (to - from) * (W - L - R);
    const y = v => T + (1 - (Math.max(lo, Math.min(hi, v)) - lo) / (hi - lo)) * (H - T - B);

    const svg = s("svg", {class: "chart", viewBox: `0 0 ${W} ${H}`, role: "img",
      "data-signal": series.signal, "data-scope": series.scope || "", "data-points": pts.length,
      "aria-label": `${series.signal} (${series.scope}) against its baseline`});

    const step = niceStep(hi - lo);
    const axis = s("g", {class: "axis"});
    for (let v = Math.ceil(lo / step) * step; v <= hi; v += step) {
      axis.append(s("line", {class: "grid", x1: L, x2: W - R, y1: y(v), y2: y(v)}));
      const label = s("text", {x: L - 6, y: y(v) + 4, "text-anchor": "end"});
      label.textContent = CPD.value(v, series.unit);
      axis.append(label);
    }
    for (let i = 0; i <= 4; i++) {
      const t = from + (to - from) * i / 4;
      const label = s("text", {x: x(t), y: H - 6,
        "text-anchor": i === 0 ? "start" : i === 4 ? "end" : "middle"});
      label.textContent = timeLabel(t, to - from);
      axis.append(label);
    }
    svg.append(axis);

    for (const a of series.anomalies) {
      const start = Date.parse(a.startedAt);
      // An open anomaly lasts as far as the data goes, not to the edge of an empty future.
      const end = a.endedAt ? Date.parse(a.endedAt)
          : pts.length ? Math.max(start, Date.parse(pts[pts.length - 1].end)) : to;
      const x0 = x(start), x1 = Math.max(x(end), x0 + 3);
      const r = s("rect", {class: "anomaly-period " + a.state, x: x0, y: T, width: x1 - x0,
        height: H - T - B, "data-anomaly-id": a.id, "data-state": a.state,
        "data-started-at": a.startedAt});
      const title = s("title");
      title.textContent = `anomaly ${a.id} (${a.state}) from ${CPD.time(a.startedAt)}`
          + (a.endedAt ? ` to ${CPD.time(a.endedAt)}` : "");
      r.append(title);
      svg.append(r);
    }

    for (const run of runs(pts, ["lower", "upper"])) {
      const up = run.map(p => `${x(mid(p)).toFixed(1)},${y(p.upper).toFixed(1)}`);
      const down = run.slice().reverse().map(p => `${x(mid(p)).toFixed(1)},${y(p.lower).toFixed(1)}`);
      svg.append(s("polygon", {class: "band", points: up.concat(down).join(" ")}));
      svg.append(s("polyline", {class: "expected",
        points: run.map(p => `${x(mid(p)).toFixed(1)},${y(p.expected).toFixed(1)}`).join(" ")}));
    }
    for (const run of runs(pts, ["min", "max", "last"])) {
      const up = run.map(p => `${x(mid(p)).toFixed(1)},${y(p.max).toFixed(1)}`);
      const down = run.slice().reverse().map(p => `${x(mid(p)).toFixed(1)},${y(p.min).toFixed(1)}`);
      svg.append(s("polygon", {class: "observed-range", points: up.concat(down).join(" ")}));
      svg.append(s("polyline", {class: "observed",
        points: run.map(p => `${x(mid(p)).toFixed(1)},${y(p.last).toFixed(1)}`).join(" ")}));
    }
    for (const p of pts) {
      if (p.outside && p.max !== null) {
        const c = s("circle", {class: "outside-point", cx: x(mid(p)), cy: y(p.max), r: 3});
        const title = s("title");
        title.textContent = `${CPD.time(p.start)}: ${CPD.value(p.max, series.unit)}`
            + (p.upper !== null ? ` (band up to ${CPD.value(p.upper, series.unit)})` : "");
        c.append(title);
        svg.append(c);
      }
    }
    if (opts && opts.at) {
      const t = Date.parse(opts.at);
      if (t >= from && t <= to) {
        svg.append(s("line", {class: "at-marker", x1: x(t), x2: x(t), y1: T, y2: H - B}));
      }
    }
    if (!pts.length) {
      const t = s("text", {class: "no-data", x: (L + W - R) / 2, y: H / 2, "text-anchor": "middle"});
      t.textContent = "no history in this range";
      svg.append(t);
    }
    return svg;
  }

  return {render};
})();
