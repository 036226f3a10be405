// Shared helpers of the Checkpoint Doctor pages. Plain browser JavaScript, no build step.
"use strict";

const CPD = (() => {
  // Credentials the user typed into the login form, kept for this browser tab (sessionStorage):
  // with --api-token or --api-basic-auth the pages load freely, the data needs credentials.
  const AUTH_KEY = "checkpoint-doctor.authorization";
  let login = null;

  async function api(path) {
    for (;;) {
      const auth = sessionStorage.getItem(AUTH_KEY);
      // X-Requested-With: the service then sends no Basic challenge, so the browser shows this
      // page's login form rather than a dialog of its own.
      const headers = {Accept: "application/json", "X-Requested-With": "XMLHttpRequest"};
      if (auth) headers.Authorization = auth;
      const r = await fetch(path, {headers});
      const body = await r.json().catch(() => ({error: r.statusText}));
      if (r.status === 401) {
        if (auth && sessionStorage.getItem(AUTH_KEY) === auth) sessionStorage.removeItem(AUTH_KEY);
        await askForCredentials(body.schemes || ["bearer", "basic"],
            auth ? "Those credentials were not accepted." : null);
        continue;
      }
      if (!r.ok) {
        throw new Error(body.error || ("HTTP " + r.status));
      }
      return body;
    }
  }

  // One form for every request that met a 401; they all retry once it is submitted.
  function askForCredentials(schemes, problem) {
    if (login) return login;
    login = new Promise(resolve => {
      const token = schemes.includes("bearer");
      const basic = schemes.includes("basic");
      const form = el("form", {id: "login", class: "card login"},
          el("h2", {text: "Sign in"}),
          el("p", {class: "muted", text: "This Checkpoint Doctor asks for "
              + (token && basic ? "its API token or user and password"
                  : token ? "its API token (--api-token)" : "a user and password (--api-basic-auth)")
              + ". They are kept in this browser tab until you sign out or close it."}),
          problem ? el("p", {class: "error", text: problem}) : null,
          token ? el("label", {}, "API token ", el("input", {id: "login-token", type: "password",
            autocomplete: "current-password"})) : null,
          token && basic ? el("p", {class: "muted or", text: "or"}) : null,
          basic ? el("label", {}, "User ", el("input", {id: "login-user", autocomplete: "username"}))
              : null,
          basic ? el("label", {}, "Password ", el("input", {id: "login-password", type: "password",
            autocomplete: "current-password"})) : null,
          el("button", {type: "submit", id: "login-submit", text: "Sign in"}));
      const overlay = el("div", {class: "login-overlay"}, form);
      form.addEventListener("submit", e => {
        e.preventDefault();
        const t = token ? form.querySelector("#login-token").value.trim() : "";
        const user = basic ? form.querySelector("#login-user").value : "";
        const password = basic ? form.querySelector("#login-password").value : "";
        if (!t && !user) return;
        sessionStorage.setItem(AUTH_KEY, t ? "Bearer " + t
            : "Basic " + base64(user + ":" + password));
        overlay.remove();
        login = null;
        signOutLink();
        resolve();
      });
      document.body.append(overlay);
      const first = form.querySelector("input");
      if (first) first.focus();
    });
    return login;
  }

  function base64(text) {
    return btoa(String.fromCharCode(...new TextEncoder().encode(text)));
  }

  function signOutLink() {
    const header = document.querySelector("header.top");
    if (!header || !sessionStorage.getItem(AUTH_KEY) || document.getElementById("sign-out")) return;
    header.append(el("a", {id: "sign-out", class: "sign-out", href: "#", text: "sign out",
      onclick: e => {
        e.preventDefault();
        sessionStorage.removeItem(AUTH_KEY);
        location.reload();
      }}));
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
    const a = Math.abs(v);
    const n = (x, d) => (Math.abs(x) >= 100 ? x.toFixed(0) : x.toFixed(d === undefined ? 1 : d));
    switch (unit) {
      case "ms":
        return v === 0 ? "0 ms" : a >= 60000 ? n(v / 60000) + " min" : a >= 1000 ? n(v / 1000) + " s"
            : n(v) + " ms";
      case "s":
        return v === 0 ? "0 s" : a >= 3600 ? n(v / 3600) + " h" : a >= 60 ? n(v / 60) + " min"
            : n(v) + " s";
      case "bytes": case "bytes/s": {
        const units = ["B", "KiB", "MiB", "GiB", "TiB"];
        let i = 0, x = v;
        while (Math.abs(x) >= 1024 && i < units.length - 1) { x /= 1024; i++; }
        return (x === 0 ? "0" : n(x)) + " " + units[i] + (unit === "bytes/s" ? "/s" : "");
      }
      case "ratio": return (v === 0 ? "0" : n(v * 100)) + " %";
      case "count": case "bool": return Number.isInteger(v) ? String(v) : n(v, 2);
      default: {
        const shown = v === 0 ? "0" : a >= 1e6 ? n(v / 1e6) + "M" : a >= 1e3 ? n(v / 1e3) + "k"
            : n(v);
        return shown + (unit === "1/s" ? "/s" : unit ? " " + unit : "");
      }
    }
  }

  // "1 h 20 min", "3 min", "2 d 4 h": a span as people say it.
  function span(ms) {
    const m = Math.max(1, Math.round(ms / 60000));
    if (m < 60) return m + " min";
    const h = Math.floor(m / 60), rest = m % 60;
    if (h < 48) return h + " h" + (rest ? " " + rest + " min" : "");
    const d = Math.floor(h / 24);
    return d + " d" + (h % 24 ? " " + (h % 24) + " h" : "");
  }

  // How far a learning job is, from /api/v1/jobs: ready baselines and when checkpoint anomalies
  // can be detected (event time of readyAt against the job's newest data).
  function learningText(j) {
    const parts = [`${j.baselinesReady} of ${j.baselinesTotal} baselines ready`];
    if (j.checkpointsUntilReady > 0) {
      let when = `checkpoint alerts possible after ${j.checkpointsUntilReady} more `
          + `completed checkpoint${j.checkpointsUntilReady === 1 ? "" : "s"}`;
      if (j.readyAt && j.lastSeen) {
        when += ` (~${span(Date.parse(j.readyAt) - Date.parse(j.lastSeen))} at this job's pace, `
            + `about ${time(j.readyAt).replace(/^\d{4}-\d\d-\d\d /, "")})`;
      }
      parts.push(when);
    }
    return parts.join("; ");
  }

  function learning(j) {
    return el("span", {class: "learning-progress", "data-ready": j.baselinesReady,
      "data-total": j.baselinesTotal, "data-checkpoints": j.checkpointsUntilReady,
      "data-ready-at": j.readyAt || "", text: learningText(j)});
  }

  function severityBadge(severity) {
    return severity ? el("span", {class: "severity severity-" + severity,
      "data-severity": severity, text: severity}) : null;
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

  document.addEventListener("DOMContentLoaded", signOutLink);
  if (document.readyState !== "loading") signOutLink();

  return {api, el, replace, time, ago, value, span, param, jobLink, identity, statusBadge,
    severityBadge, learning, learningText, stamp};
})();
