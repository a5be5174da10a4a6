// Shared helpers of the puzzleforge pages: JSON calls that turn server errors into messages.
"use strict";
window.PF = (function () {
  async function api(url, options) {
    const opts = Object.assign({ headers: {} }, options || {});
    if (opts.json !== undefined) {
      opts.body = JSON.stringify(opts.json);
      opts.headers["Content-Type"] = "application/json";
      opts.method = opts.method || "POST";
      delete opts.json;
    }
    let response;
    try {
      response = await fetch(url, opts);
    } catch (e) {
      throw { kind: "network", message: "The local server did not answer (is `puzzleforge serve` still running?)" };
    }
    let body = null;
    try { body = await response.json(); } catch (e) { body = null; }
    if (!response.ok) {
      const err = (body && body.error) || { kind: "http", message: "The server answered " + response.status };
      throw err;
    }
    return body;
  }
  function showError(el, err) {
    if (!el) return;
    if (!err) { el.hidden = true; el.textContent = ""; return; }
    el.hidden = false;
    el.textContent = (err.kind ? err.kind + ": " : "") + (err.message || String(err));
  }
  async function pollJob(jobId, onProgress) {
    for (;;) {
      const job = await api("/api/jobs/" + jobId);
      if (onProgress) onProgress(job);
      if (job.status === "done") return job.result;
      if (job.status === "failed") throw job.error;
      await new Promise(function (r) { setTimeout(r, 150); });
    }
  }
  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    Object.entries(attrs || {}).forEach(function ([k, v]) {
      if (k === "text") node.textContent = v;
      else if (k === "class") node.className = v;
      else if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v === true ? "" : v);
    });
    (children || []).forEach(function (c) { node.append(c); });
    return node;
  }
  // JSON with short arrays/objects of scalars kept on one line (grids stay readable).
  function compact(value, pad) {
    const inner = pad + "  ";
    if (Array.isArray(value)) {
      if (value.every(function (v) { return v === null || typeof v !== "object"; })) return JSON.stringify(value).replace(/,/g, ", ");
      return "[\n" + value.map(function (v) { return inner + compact(v, inner); }).join(",\n") + "\n" + pad + "]";
    }
    if (value && typeof value === "object") {
      const keys = Object.keys(value);
      if (!keys.length) return "{}";
      return "{\n" + keys.map(function (k) { return inner + JSON.stringify(k) + ": " + compact(value[k], inner); }).join(",\n") + "\n" + pad + "}";
    }
    return JSON.stringify(value);
  }
  function pretty(value) {
    if (value === null || value === undefined) return "";
    if (typeof value === "string") return value;
    return compact(value, "");
  }
  return { api: api, showError: showError, pollJob: pollJob, el: el, pretty: pretty };
})();
