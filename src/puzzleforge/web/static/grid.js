// Grid-genre page: generate or load, play with mouse and keyboard, check, hint, reveal.
"use strict";
(function () {
  const $ = function (id) { return document.getElementById(id); };
  let view = null, values = {};

  function say(text, cls) { const b = $("gp-result"); b.className = cls || ""; b.textContent = text; }
  function status(text) { $("gp-status").textContent = text; }

  function describe(token) {
    if (!token) return "empty";
    if (view.placed) return token === "1" ? view.placed[0] : view.placed[1];
    if (view.binary) return token === "1" ? "black" : "white";
    return token;
  }

  function build() {
    const R = view.rows, C = view.cols, d = view.drawing;
    const outside = {};
    d.outside.forEach(function (o) { outside[o[0] + o[1]] = o[2]; });
    const has = { N: false, S: false, W: false, E: false };
    d.outside.forEach(function (o) { has[o[0]] = true; });
    const table = PF.el("table", { class: "gp", role: "grid", "aria-label": view.title + " board" });
    function outRow(side) {
      const tr = PF.el("tr");
      if (has.W) tr.append(PF.el("td", { class: "out" }));
      for (let c = 0; c < C; c++) tr.append(PF.el("td", { class: "out", text: outside[side + c] || "" }));
      if (has.E) tr.append(PF.el("td", { class: "out" }));
      return tr;
    }
    if (has.N) table.append(outRow("N"));
    for (let r = 0; r < R; r++) {
      const tr = PF.el("tr");
      if (has.W) tr.append(PF.el("td", { class: "out", text: outside["W" + r] || "" }));
      for (let c = 0; c < C; c++) {
        const key = r + "," + c;
        const cls = [];
        const reg = d.regions[key];
        if (reg !== undefined) {
          if (c < C - 1 && d.regions[r + "," + (c + 1)] !== reg) cls.push("tR");
          if (r < R - 1 && d.regions[(r + 1) + "," + c] !== reg) cls.push("tB");
        }
        if (view.givens[key] !== undefined) cls.push("given");
        if (d.text[key] !== undefined && view.givens[key] !== undefined) cls.push("cluetext");
        if (d.walls.indexOf(key) >= 0) cls.push("wall");
        if (view.binary) cls.push(view.placed ? "placed" : "binary");
        const td = PF.el("td", { class: cls.join(" "), "data-key": key });
        const b = PF.el("button", { type: "button", tabindex: r === 0 && c === 0 ? "0" : "-1", "data-key": key, "data-r": r, "data-c": c });
        b.addEventListener("click", function () { cycle(key); });
        td.append(b);
        tr.append(td);
      }
      if (has.E) tr.append(PF.el("td", { class: "out", text: outside["E" + r] || "" }));
      table.append(tr);
    }
    if (has.S) table.append(outRow("S"));
    // inequality signs between cells (Futoshiki): drawn on the edge of the left/top cell
    d.between.forEach(function (b) {
      const o = b[0], r = b[1], c = b[2];
      const key = o === "v" ? r + "," + (c - 1) : (r - 1) + "," + c;
      const td = table.querySelector('td[data-key="' + key + '"]');
      if (td) td.append(PF.el("span", { class: "rel rel-" + o, "aria-hidden": "true", text: b[3] }));
    });
    table.addEventListener("keydown", onKey);
    $("gp-board").replaceChildren(table);
    paint();
  }

  function paint(hl) {
    hl = hl || {};
    document.querySelectorAll("#gp-board td[data-key]").forEach(function (td) {
      const key = td.dataset.key;
      const given = view.givens[key];
      const tok = given !== undefined ? given : values[key];
      const b = td.firstChild;
      ["v0", "v1"].forEach(function (c) { td.classList.remove(c); });
      if (tok !== undefined && view.binary) td.classList.add("v" + tok);
      const clue = view.drawing.text[key];
      let shown = view.binary ? "" : (tok || "");
      if (view.placed && tok !== undefined) shown = tok === "1" ? view.placed[2] : "·";
      b.textContent = clue !== undefined && given !== undefined ? clue : shown;
      const rc = key.split(",");
      b.setAttribute("aria-label", "row " + (+rc[0] + 1) + ", column " + (+rc[1] + 1) + ": " + describe(tok) +
        (clue !== undefined && given !== undefined ? " (clue " + clue + ")" : given !== undefined ? " (given)" : ""));
      td.classList.toggle("wrong", !!(hl.wrong && hl.wrong.has(key)));
      td.classList.toggle("hinted", hl.hinted === key);
      td.classList.toggle("used", !!(hl.used && hl.used.has(key)));
    });
  }

  function set(key, tok) {
    if (view.givens[key] !== undefined) return;
    if (tok === null) delete values[key]; else values[key] = tok;
    paint();
  }

  function cycle(key) {
    if (view.givens[key] !== undefined) return;
    const order = view.values;
    const cur = values[key];
    const at = cur === undefined ? -1 : order.indexOf(cur);
    set(key, at + 1 < order.length ? order[at + 1] : null);
  }

  function onKey(ev) {
    const b = ev.target.closest("button[data-key]");
    if (!b) return;
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (moves[ev.key]) {
      ev.preventDefault();
      const r = +b.dataset.r + moves[ev.key][0], c = +b.dataset.c + moves[ev.key][1];
      const next = document.querySelector('#gp-board button[data-r="' + r + '"][data-c="' + c + '"]');
      if (next) { b.tabIndex = -1; next.tabIndex = 0; next.focus(); }
      return;
    }
    const key = b.dataset.key;
    const k = ev.key.toLowerCase();
    if (k === " " || k === "enter") { ev.preventDefault(); cycle(key); }
    else if (k === "delete" || k === "backspace") { set(key, null); }
    else if (view.binary && (k === "b" || k === "1")) set(key, "1");
    else if (view.binary && (k === "w" || k === "0")) set(key, "0");
    else if (!view.binary && view.values.indexOf(ev.key) >= 0) set(key, ev.key);
  }

  function show(v) {
    view = v; values = {};
    PF.showError($("gp-error"), null);
    $("gp-play").hidden = false;
    $("gp-title").textContent = v.title;
    $("gp-info").textContent = "· " + v.rows + "×" + v.cols + (v.seed !== null ? " · seed " + v.seed : "") +
      (v.difficulty !== null ? " · difficulty " + v.difficulty.toFixed(1) : "");
    $("gp-play-rules").textContent = v.rules;
    $("gp-keys").textContent = v.placed
      ? "Click a cell to cycle empty → " + v.placed[0] + " → " + v.placed[1] + ". Keyboard: arrows move, Space cycles, 1 places, 0 marks empty, Delete clears."
      : v.binary
      ? "Click a cell to cycle empty → black → white. Keyboard: arrows move, Space cycles, B or 1 black, W or 0 white, Delete clears."
      : "Click a cell to cycle its values. Keyboard: arrows move, type a value (" + v.values.join(" ") + "), Delete clears.";
    if (!v.playable) $("gp-keys").textContent = "";
    $("gp-source").textContent = v.text;
    $("gp-url").textContent = v.url ? "puzz.link: " + v.url : "";
    ["gp-check", "gp-hint", "gp-clear"].forEach(function (id) { $(id).disabled = !v.playable; });
    if (v.playable) build();
    else $("gp-board").replaceChildren(PF.el("pre", { class: "block picture", "aria-label": v.title + " puzzle", text: v.picture }));
    say(v.playable ? "" : "This genre cannot be played cell by cell here; use Reveal to see the solution.", "");
    const first = document.querySelector("#gp-board button");
    if (first) first.focus();
  }

  async function call(path, body) {
    return PF.api("/api/grid/" + view.token + path, body === undefined ? {} : { json: body });
  }

  $("gp-genre").addEventListener("change", function () {
    const opt = $("gp-genre").selectedOptions[0];
    $("gp-size").value = opt.dataset.size;
  });

  $("gp-form").addEventListener("submit", async function (ev) {
    ev.preventDefault();
    const body = { genre: $("gp-genre").value, size: $("gp-size").value, difficulty: $("gp-difficulty").value };
    if ($("gp-seed").value !== "") body.seed = +$("gp-seed").value;
    $("gp-generate").disabled = true;
    status("Generating…");
    try {
      const job = await PF.api("/api/grid/generate", { json: body });
      show(await PF.pollJob(job.id, function (j) { status("Generating… " + j.message); }));
      status("");
    } catch (err) { status(""); PF.showError($("gp-error"), err); }
    finally { $("gp-generate").disabled = false; }
  });

  $("gp-load-form").addEventListener("submit", async function (ev) {
    ev.preventDefault();
    status("Loading and solving…");
    try { show(await PF.api("/api/grid/load", { json: { text: $("gp-text").value } })); status(""); }
    catch (err) { status(""); PF.showError($("gp-error"), err); }
  });

  $("gp-check").addEventListener("click", async function () {
    try {
      const res = await call("/check", { values: values });
      paint({ wrong: new Set(res.wrong) });
      if (res.wrong.length) say(res.wrong.length + " wrong cell(s), highlighted in red.", "error");
      else if (res.solved) say("Solved! Every cell is correct.", "success");
      else say("No mistakes so far (" + res.filled + " of " + res.cells + " cells filled).", "");
    } catch (err) { PF.showError($("gp-error"), err); }
  });

  $("gp-hint").addEventListener("click", async function () {
    try {
      const res = await call("/hint", { values: values });
      if (res.kind === "wrong") { paint({ wrong: new Set(res.wrong) }); say("Hint: " + res.message + ".", "error"); return; }
      if (res.kind !== "step") { say(res.message, res.kind === "solved" ? "success" : ""); return; }
      values[res.cell] = res.value;
      paint({ hinted: res.cell, used: new Set(res.used || []) });
      say("Hint: " + res.reason + ".", "");
    } catch (err) { PF.showError($("gp-error"), err); }
  });

  $("gp-reveal").addEventListener("click", async function () {
    try {
      const res = await call("/solution");
      if (!view.playable) {
        $("gp-board").replaceChildren(PF.el("pre", { class: "block picture", "aria-label": view.title + " solution", text: res.picture }));
        say("Solution revealed.", "");
        return;
      }
      values = res.values;
      Object.keys(view.givens).forEach(function (k) { delete values[k]; });
      paint();
      say("Solution revealed.", "");
    } catch (err) { PF.showError($("gp-error"), err); }
  });

  $("gp-clear").addEventListener("click", function () { values = {}; paint(); say("", ""); });
})();
