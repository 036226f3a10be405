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

  // Where a point's value begins: its first observation (older answers lack it: its start).
  function begins(p) {
    return Date.parse(p.firstAt || p.start);
  }

  // A value holds until the next one arrives, as a gauge does: the line steps at each point's
  // first observation, so a change shows where it happened (not as a ramp from the middle of
  // the bucket before). The last value holds to the end of its point.
  function stepLine(run, field, x, y) {
    const out = [];
    run.forEach((p, i) => {
      const t = begins(p);
      if (i > 0) out.push([x(t), y(run[i - 1][field])]);
      out.push([x(t), y(p[field])]);
    });
    const last = run[run.length - 1];
    out.push([x(Date.parse(last.end)), y(last[field])]);
    return out.map(([a, b]) => `${a.toFixed(1)},${b.toFixed(1)}`).join(" ");
  }

  // The band belongs to each point's span [start, end): the baseline it was judged against.
  function spanLine(run, field, x, y) {
    return run.flatMap(p => [[x(Date.parse(p.start)), y(p[field])],
      [x(Date.parse(p.end)), y(p[field])]])
        .map(([a, b]) => `${a.toFixed(1)},${b.toFixed(1)}`).join(" ");
  }

  // An area between two fields over each point's own span [start, end): steps, not slopes.
  function stepArea(run, top, bottom, x, y) {
    const up = run.flatMap(p => [[x(Date.parse(p.start)), y(p[top])],
      [x(Date.parse(p.end)), y(p[top])]]);
    const down = run.slice().reverse().flatMap(p => [[x(Date.parse(p.end)), y(p[bottom])],
      [x(Date.parse(p.start)), y(p[bottom])]]);
    return up.concat(down).map(([a, b]) => `${a.toFixed(1)},${b.toFixed(1)}`).join(" ");
  }

  const SECOND = 1000, MINUTE = 60e3, HOUR = 3600e3, DAY = 86400e3;
  const TIME_STEPS = [SECOND, 2 * SECOND, 5 * SECOND, 10 * SECOND, 15 * SECOND, 30 * SECOND,
    MINUTE, 2 * MINUTE, 5 * MINUTE, 10 * MINUTE, 15 * MINUTE, 30 * MINUTE, HOUR, 2 * HOUR,
    3 * HOUR, 6 * HOUR, 12 * HOUR, DAY, 2 * DAY, 7 * DAY];

  // Ticks at round UTC times (every 15 min, every hour, at midnight …), at most six of them.
  function timeTicks(from, to) {
    const step = TIME_STEPS.find(s => (to - from) / s <= 6) || 14 * DAY;
    const ticks = [];
    for (let t = Math.ceil(from / step) * step; t <= to; t += step) ticks.push(t);
    return {step, ticks};
  }

  // Labels as precise as the step, so no two ticks read the same.
  function timeLabel(ms, step, spanMs) {
    const iso = new Date(ms).toISOString();
    if (step >= DAY) return iso.slice(5, 10);
    if (step < MINUTE) return iso.slice(11, 19);
    return spanMs > DAY && iso.slice(11, 16) === "00:00" ? iso.slice(5, 10)
        : spanMs > DAY ? iso.slice(5, 10) + " " + iso.slice(11, 16) : iso.slice(11, 16);
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
      "data-from": series.from, "data-to": series.to,
      "aria-label": `${series.signal} (${series.scope}) against its baseline`});

    const step = niceStep(hi - lo);
    const axis = s("g", {class: "axis"});
    for (let v = Math.ceil(lo / step) * step; v <= hi; v += step) {
      axis.append(s("line", {class: "grid", x1: L, x2: W - R, y1: y(v), y2: y(v)}));
      const label = s("text", {x: L - 6, y: y(v) + 4, "text-anchor": "end"});
      label.textContent = CPD.value(v, series.unit);
      axis.append(label);
    }
    const {step: tStep, ticks} = timeTicks(from, to);
    for (const t of ticks) {
      const px = x(t);
      axis.append(s("line", {class: "tick", x1: px, x2: px, y1: H - B, y2: H - B + 3}));
      const label = s("text", {class: "tick-time", x: px, y: H - 6, "data-t": t,
        "data-step": tStep,
        "text-anchor": px - L < 20 ? "start" : W - R - px < 20 ? "end" : "middle"});
      label.textContent = timeLabel(t, tStep, to - from);
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
      svg.append(s("polygon", {class: "band", points: stepArea(run, "upper", "lower", x, y)}));
      svg.append(s("polyline", {class: "expected", points: spanLine(run, "expected", x, y)}));
    }
    for (const run of runs(pts, ["min", "max", "last"])) {
      svg.append(s("polygon", {class: "observed-range", points: stepArea(run, "max", "min", x, y)}));
      svg.append(s("polyline", {class: "observed", points: stepLine(run, "last", x, y)}));
    }
    for (const p of pts) {
      if (p.outside && p.max !== null) {
        const c = s("circle", {class: "outside-point", cx: x(begins(p)), cy: y(p.max), r: 3});
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
