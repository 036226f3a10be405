// Shared helpers of the Checkpoint Doctor pages. Plain browser JavaScript, no build step.
"use strict";

const CPD = (() => {
  async function api(path) {
    const r = await fetch(path, {headers: {Accept: "application/json"}});
    const body = await r.json().catch(() => ({error: r.statusText}));
    if (!r.ok) {
      throw new Error(body.error || ("HTTP " + r.status));
    }
    return body;
  }

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "text") e.textContent = v;
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children.flat()) {
      if (c === null || c === undefined) continue;
      e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return e;
  }

  // Times are shown in UTC, like the API, so a page and a log line can be compared as they are.
  // replaceChildren would print a null child as the text "null"; optional parts are null here.
  function replace(node, ...children) {
    node.replaceChildren(...children.flat().filter(c => c !== null && c !== undefined));
  }

  function time(iso) {
    if (!iso) return "–";
    return iso.replace("T", " ").replace(/\.\d+Z$/, "Z").replace(/:\d\dZ$/, "Z")
        .replace("Z", " UTC");
  }

  function ago(iso, nowMs) {
    if (!iso) return "";
    const s = Math.round((nowMs - Date.parse(iso)) / 1000);
    if (s < 0) return "";
    if (s < 90) return s + " s ago";
    if (s < 5400) return Math.round(s / 60) + " min ago";
    if (s < 129600) return Math.round(s / 3600) + " h ago";
    return Math.round(s / 86400) + " d ago";
  }

  function value(v, unit) {
    if (v === null || v === undefined || !isFinite(v)) return "–";
    if (v === 0) return "0";
    const a = Math.abs(v);
    const n = (x, d) => (Math.abs(x) >= 100 ? x.toFixed(0) : x.toFixed(d === undefined ? 1 : d));
    switch (unit) {
      case "ms":
        return a >= 60000 ? n(v / 60000) + " min" : a >= 1000 ? n(v / 1000) + " s" : n(v) + " ms";
      case "s":
        return a >= 3600 ? n(v / 3600) + " h" : a >= 60 ? n(v / 60) + " min" : n(v) + " s";
      case "bytes": case "bytes/s": {
        const units = ["B", "KiB", "MiB", "GiB", "TiB"];
        let i = 0, x = v;
        while (Math.abs(x) >= 1024 && i < units.length - 1) { x /= 1024; i++; }
        return n(x) + " " + units[i] + (unit === "bytes/s" ? "/s" : "");
      }
      case "ratio": return n(v * 100) + " %";
      case "count": return Number.isInteger(v) ? String(v) : n(v, 2);
      default: return (a >= 1e6 ? n(v / 1e6) + " M" : a >= 1e3 ? n(v / 1e3) + " k" : n(v, 2))
          + (unit && unit !== "1/s" ? " " + unit : unit === "1/s" ? " /s" : "");
    }
  }

  function param(name) {
    return new URLSearchParams(location.search).get(name);
  }

  // "job_name orders_etl, cluster=eu-1": what the job's key is made of (--job-identity-labels).
  function identity(job) {
    const labels = Object.entries(job.labels || {}).map(([k, v]) => k + "=" + v);
    return labels.length ? "job_name " + job.jobName + ", " + labels.join(", ") : null;
  }

  function jobLink(job, at) {
    return "/ui/job.html?job=" + encodeURIComponent(job) + (at ? "&at=" + encodeURIComponent(at) : "");
  }

  function statusBadge(status) {
    return el("span", {class: "status status-" + status, "data-status": status, text: status});
  }

  // Shows when the page last got data, and errors instead of silently stale numbers.
  function stamp(error) {
    const s = document.getElementById("refreshed");
    if (!s) return;
    s.textContent = error ? "update failed: " + error.message
        : "updated " + new Date().toISOString().slice(11, 19) + " UTC";
    s.classList.toggle("error", !!error);
  }

  return {api, el, replace, time, ago, value, param, jobLink, identity, statusBadge, stamp};
})();
