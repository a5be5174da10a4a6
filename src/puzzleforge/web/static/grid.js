// Grid-genre page: generate or load, then play every genre with mouse and keyboard.
// Three board modes (from the server's view.mode): "cell" (a value per cell: shading,
// bulbs, stars, digits), "edge" (Slitherlink: segments along the grid lines) and "link"
// (Masyu: segments between cell centres). Entries are keyed like the server: "r,c" for a
// cell, "h,r,c" / "v,r,c" for an edge (0-based). Undo/redo keeps every change in groups
// (a drag or a hint is one group); pencil marks stay in the browser.
"use strict";
(function () {
  const $ = function (id) { return document.getElementById(id); };
  const SVGNS = "http://www.w3.org/2000/svg";
  let view = null, values = {}, pencil = {}, undo = [], redo = [], pencilMode = false;
  let lastHL = {}, typed = { key: null, text: "", at: 0 }, drag = null, group = null;

  function say(text, cls) { const b = $("gp-result"); b.className = cls || ""; b.textContent = text; }
  function status(text) { $("gp-status").textContent = text; }

  function describe(token) {
    if (!token) return "empty";
    if (view.placed) return token === "1" ? view.placed[0] : view.placed[1];
    if (view.binary) return token === "1" ? "black" : "white";
    return token;
  }

  // ---- changes, undo and redo ------------------------------------------------------------
  function begin() { group = []; }
  function commit() {
    if (group && group.length) { undo.push(group); redo = []; }
    group = null;
    updateHistoryButtons();
  }
  function change(kind, key, after) {
    const store = kind === "v" ? values : pencil;
    const before = store[key] === undefined ? null : store[key];
    if (before === after || (kind === "p" && before && after && before.join() === after.join())) return;
    if (after === null) delete store[key]; else store[key] = after;
    const own = group === null;
    if (own) begin();
    group.push({ kind: kind, key: key, before: before, after: after });
    if (own) commit();
  }
  function replay(steps, forward) {
    const list = forward ? steps : steps.slice().reverse();
    list.forEach(function (s) {
      const store = s.kind === "v" ? values : pencil;
      const v = forward ? s.after : s.before;
      if (v === null) delete store[s.key]; else store[s.key] = v;
    });
  }
  function doUndo() {
    const g = undo.pop();
    if (!g) return;
    replay(g, false); redo.push(g); paint(); updateHistoryButtons();
  }
  function doRedo() {
    const g = redo.pop();
    if (!g) return;
    replay(g, true); undo.push(g); paint(); updateHistoryButtons();
  }
  function updateHistoryButtons() {
    $("gp-undo").disabled = !undo.length;
    $("gp-redo").disabled = !redo.length;
  }

  function isGiven(key) { return view.givens[key] !== undefined; }
  function setValue(key, tok) {
    if (isGiven(key)) return;
    change("v", key, tok);
    if (tok !== null && pencil[key]) change("p", key, null);
  }
  function nextToken(key, backwards) {
    const order = view.binary && backwards ? ["0", "1"] : view.values;
    const cur = values[key];
    let at = cur === undefined ? -1 : order.indexOf(cur);
    if (backwards && !view.binary) {
      at = cur === undefined ? order.length : at;
      return at - 1 >= 0 ? order[at - 1] : null;
    }
    return at + 1 < order.length ? order[at + 1] : null;
  }

  // ---- building the board ------------------------------------------------------------------
  function build() {
    const R = view.rows, C = view.cols, d = view.drawing;
    const outside = {};
    d.outside.forEach(function (o) { outside[o[0] + o[1]] = o[2]; });
    const has = { N: false, S: false, W: false, E: false };
    d.outside.forEach(function (o) { has[o[0]] = true; });
    const table = PF.el("table", { class: "gp mode-" + view.mode, role: "grid", "aria-label": view.title + " board" });
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
        if (isGiven(key)) cls.push("given");
        if (d.text[key] !== undefined && (isGiven(key) || view.mode !== "cell")) cls.push("cluetext");
        if (d.walls.indexOf(key) >= 0) cls.push("wall");
        if (view.mode === "cell" && view.binary) cls.push(view.placed ? "placed" : "binary");
        const td = PF.el("td", { class: cls.join(" "), "data-key": key });
        const b = PF.el("button", { type: "button", tabindex: r === 0 && c === 0 ? "0" : "-1", "data-key": key, "data-r": r, "data-c": c });
        if (d.circles[key]) b.append(PF.el("span", { class: "pearl pearl-" + d.circles[key], "aria-hidden": "true" }));
        b.append(PF.el("span", { class: "val" }));
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
    const wrap = PF.el("div", { class: "gp-stage" }, [table]);
    if (view.mode !== "cell") {
      const svg = document.createElementNS(SVGNS, "svg");
      svg.setAttribute("class", "gp-lines");
      svg.setAttribute("aria-hidden", "true");
      wrap.append(svg);
    }
    wrap.addEventListener("pointerdown", onDown);
    wrap.addEventListener("pointermove", onMove);
    wrap.addEventListener("contextmenu", function (ev) { ev.preventDefault(); });
    $("gp-board").replaceChildren(wrap);
    buildPicker();
    paint();
  }

  function buildPicker() {
    const box = $("gp-picker");
    box.replaceChildren();
    box.hidden = view.mode !== "cell" || view.binary;
    if (box.hidden) return;
    view.values.forEach(function (v) {
      const b = PF.el("button", { type: "button", class: "secondary pick", "data-value": v, "aria-label": "Enter " + v, text: v });
      b.addEventListener("click", function () { enterValue(current(), v); current().focus(); });
      box.append(b);
    });
    const clear = PF.el("button", { type: "button", class: "secondary pick", "aria-label": "Erase the selected cell", text: "⌫" });
    clear.addEventListener("click", function () { clearCell(current()); current().focus(); });
    box.append(clear);
  }

  function current() {
    return document.querySelector('#gp-board button[tabindex="0"]') || document.querySelector("#gp-board button[data-key]");
  }
  function focusCell(b) {
    document.querySelectorAll('#gp-board button[tabindex="0"]').forEach(function (x) { x.tabIndex = -1; });
    b.tabIndex = 0;
    b.focus();
  }

  // ---- geometry of the board (edge and link modes) -----------------------------------
  function geometry() {
    const stage = document.querySelector("#gp-board .gp-stage");
    const base = stage.getBoundingClientRect();
    const xs = [], ys = [];
    for (let c = 0; c < view.cols; c++) {
      const rect = stage.querySelector('td[data-key="0,' + c + '"]').getBoundingClientRect();
      xs.push(rect.left - base.left);
      if (c === view.cols - 1) xs.push(rect.right - base.left);
    }
    for (let r = 0; r < view.rows; r++) {
      const rect = stage.querySelector('td[data-key="' + r + ',0"]').getBoundingClientRect();
      ys.push(rect.top - base.top);
      if (r === view.rows - 1) ys.push(rect.bottom - base.top);
    }
    return { base: base, xs: xs, ys: ys, stage: stage };
  }
  function segment(g, key) {
    const p = key.split(","), o = p[0], r = +p[1], c = +p[2];
    const cx = function (j) { return (g.xs[j] + g.xs[j + 1]) / 2; };
    const cy = function (i) { return (g.ys[i] + g.ys[i + 1]) / 2; };
    if (view.mode === "edge") {
      return o === "h" ? [g.xs[c], g.ys[r], g.xs[c + 1], g.ys[r]] : [g.xs[c], g.ys[r], g.xs[c], g.ys[r + 1]];
    }
    return o === "h" ? [cx(c), cy(r - 1), cx(c), cy(r)] : [cx(c - 1), cy(r), cx(c), cy(r)];
  }
  function edgeKeys() {
    const out = [], R = view.rows, C = view.cols, link = view.mode === "link";
    for (let r = link ? 1 : 0; r <= (link ? R - 1 : R); r++) for (let c = 0; c < C; c++) out.push("h," + r + "," + c);
    for (let r = 0; r < R; r++) for (let c = link ? 1 : 0; c <= (link ? C - 1 : C); c++) out.push("v," + r + "," + c);
    return out;
  }
  function locate(g, x, y) {
    // the cell under (x, y) and the position inside it (0..1), clamped to the board
    let c = 0, r = 0;
    while (c < view.cols - 1 && x > g.xs[c + 1]) c++;
    while (r < view.rows - 1 && y > g.ys[r + 1]) r++;
    const fx = (x - g.xs[c]) / (g.xs[c + 1] - g.xs[c]), fy = (y - g.ys[r]) / (g.ys[r + 1] - g.ys[r]);
    return { r: r, c: c, fx: fx, fy: fy };
  }
  function nearestEdge(g, x, y) {
    const at = locate(g, x, y);
    const sides = [["N", at.fy], ["S", 1 - at.fy], ["W", at.fx], ["E", 1 - at.fx]];
    sides.sort(function (a, b) { return a[1] - b[1]; });
    const side = sides[0][0], r = at.r, c = at.c;
    const key = { N: "h," + r + "," + c, S: "h," + (r + 1) + "," + c, W: "v," + r + "," + c, E: "v," + r + "," + (c + 1) }[side];
    return edgeKeys().indexOf(key) >= 0 ? key : null;
  }
  function node(g, x, y) {
    // edge mode: the nearest grid vertex; link mode: the cell under the pointer
    if (view.mode === "link") { const at = locate(g, x, y); return [at.r, at.c]; }
    let bc = 0, br = 0;
    g.xs.forEach(function (v, j) { if (Math.abs(v - x) < Math.abs(g.xs[bc] - x)) bc = j; });
    g.ys.forEach(function (v, i) { if (Math.abs(v - y) < Math.abs(g.ys[br] - y)) br = i; });
    return [br, bc];
  }
  function between(a, b) {
    // the edge joining two neighbouring nodes (vertices in edge mode, cells in link mode)
    if (Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) !== 1) return null;
    if (view.mode === "edge") {
      return a[0] === b[0] ? "h," + a[0] + "," + Math.min(a[1], b[1]) : "v," + Math.min(a[0], b[0]) + "," + a[1];
    }
    return a[0] === b[0] ? "v," + a[0] + "," + Math.max(a[1], b[1]) : "h," + Math.max(a[0], b[0]) + "," + a[1];
  }

  // ---- mouse and touch -----------------------------------------------------------------
  function onDown(ev) {
    if (ev.button !== 0 && ev.button !== 2) return;
    const second = ev.button === 2 || ev.shiftKey && view.mode === "cell" && view.binary;
    if (view.mode === "cell") {
      const b = ev.target.closest("button[data-key]");
      if (!b) return;
      focusCell(b);
      ev.preventDefault();
      const key = b.dataset.key;
      if (isGiven(key)) return;
      if (!view.binary && !second) return; // number genres: click selects, type or pick a value
      begin();
      const tok = nextToken(key, second);
      setValue(key, tok);
      drag = { paint: tok, seen: new Set([key]) };
    } else {
      const g = geometry();
      const x = ev.clientX - g.base.left, y = ev.clientY - g.base.top;
      const b = ev.target.closest("button[data-key]");
      if (b) focusCell(b);
      ev.preventDefault();
      begin();
      drag = { g: g, second: second, start: [x, y], last: node(g, x, y), moved: false, paint: undefined };
    }
    paint();
  }
  function onMove(ev) {
    if (!drag) return;
    if (ev.buttons === 0) { finishDrag(ev); return; }
    if (view.mode === "cell") {
      const el = document.elementFromPoint(ev.clientX, ev.clientY);
      const b = el && el.closest ? el.closest("#gp-board button[data-key]") : null;
      if (!b || drag.seen.has(b.dataset.key)) return;
      drag.seen.add(b.dataset.key);
      setValue(b.dataset.key, drag.paint);
      paint();
      return;
    }
    const g = drag.g;
    const x = ev.clientX - g.base.left, y = ev.clientY - g.base.top;
    if (Math.hypot(x - drag.start[0], y - drag.start[1]) < 6) return;
    const n = node(g, x, y);
    if (n[0] === drag.last[0] && n[1] === drag.last[1]) return;
    const key = between(drag.last, n);
    drag.last = n;
    if (!key || edgeKeys().indexOf(key) < 0) return;
    drag.moved = true;
    if (drag.paint === undefined) {
      const on = drag.second ? "0" : "1";
      drag.paint = values[key] === on ? null : on;
    }
    setValue(key, drag.paint);
    paint();
  }
  function finishDrag(ev) {
    if (!drag) return;
    if (view.mode !== "cell" && !drag.moved && ev && ev.clientX !== undefined) {
      const g = drag.g;
      const key = nearestEdge(g, ev.clientX - g.base.left, ev.clientY - g.base.top);
      if (key) toggleEdge(key, drag.second);
    }
    drag = null;
    commit();
    paint();
  }
  document.addEventListener("pointerup", finishDrag);
  document.addEventListener("pointercancel", function () { drag = null; commit(); });

  function toggleEdge(key, cross) {
    // left: line <-> empty (a cross becomes a line); right / cross: cross <-> empty
    const on = cross ? "0" : "1";
    setValue(key, values[key] === on ? null : on);
  }

  // ---- keyboard -----------------------------------------------------------------------------
  function enterValue(b, tok) {
    const key = b.dataset.key;
    if (isGiven(key)) return;
    if (pencilMode && !view.binary) {
      const marks = (pencil[key] || []).slice();
      const at = marks.indexOf(tok);
      if (at >= 0) marks.splice(at, 1); else marks.push(tok);
      marks.sort(function (a, z) { return view.values.indexOf(a) - view.values.indexOf(z); });
      change("p", key, marks.length ? marks : null);
    } else setValue(key, tok);
    paint();
  }
  function clearCell(b) {
    const key = b.dataset.key;
    begin(); setValue(key, null); if (pencil[key]) change("p", key, null); commit();
    paint();
  }
  function typeDigit(b, digit) {
    // several digits typed quickly into one cell make one value (12x12 Sudoku: 1 then 2)
    const key = b.dataset.key, now = Date.now();
    const joined = typed.key === key && now - typed.at < 1500 ? typed.text + digit : digit;
    typed = { key: key, text: joined, at: now };
    if (joined !== digit && view.values.indexOf(joined) >= 0) {
      if (pencilMode) enterValue(b, joined.slice(0, -1)); // take back the first digit's mark
      enterValue(b, joined);
      return;
    }
    typed.text = digit;
    if (view.values.indexOf(digit) >= 0) enterValue(b, digit);
  }

  function onKey(ev) {
    const b = ev.target.closest("button[data-key]");
    if (!b) return;
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    const key = b.dataset.key;
    if (moves[ev.key]) {
      ev.preventDefault();
      const r = +b.dataset.r, c = +b.dataset.c, m = moves[ev.key];
      if (view.mode !== "cell" && (ev.shiftKey || ev.ctrlKey)) {
        const side = { ArrowUp: "N", ArrowDown: "S", ArrowLeft: "W", ArrowRight: "E" }[ev.key];
        let edge;
        if (view.mode === "edge") {
          edge = { N: "h," + r + "," + c, S: "h," + (r + 1) + "," + c, W: "v," + r + "," + c, E: "v," + r + "," + (c + 1) }[side];
        } else edge = between([r, c], [r + m[0], c + m[1]]);
        if (edge && edgeKeys().indexOf(edge) >= 0) { toggleEdge(edge, ev.ctrlKey); paint(); }
        if (view.mode === "edge" || !ev.shiftKey) return;
      }
      const next = document.querySelector('#gp-board button[data-r="' + (r + m[0]) + '"][data-c="' + (c + m[1]) + '"]');
      if (next) focusCell(next);
      return;
    }
    const k = ev.key.toLowerCase();
    if ((ev.ctrlKey || ev.metaKey) && k === "z") { ev.preventDefault(); if (ev.shiftKey) doRedo(); else doUndo(); return; }
    if ((ev.ctrlKey || ev.metaKey) && k === "y") { ev.preventDefault(); doRedo(); return; }
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (view.mode !== "cell") return;
    if (k === " " || k === "enter") {
      ev.preventDefault();
      if (!isGiven(key)) { setValue(key, nextToken(key, ev.shiftKey)); paint(); }
    } else if (k === "delete" || k === "backspace") { ev.preventDefault(); clearCell(b); }
    else if (k === "p" && !view.binary) { setPencil(!pencilMode); }
    else if (view.binary && (k === "b" || k === "1")) { setValue(key, "1"); paint(); }
    else if (view.binary && (k === "w" || k === "0" || k === "x" || k === ".")) { setValue(key, "0"); paint(); }
    else if (!view.binary && /^[0-9]$/.test(ev.key)) { ev.preventDefault(); typeDigit(b, ev.key); }
    else if (!view.binary && view.values.indexOf(ev.key.toUpperCase()) >= 0) enterValue(b, ev.key.toUpperCase());
  }

  function setPencil(on) {
    pencilMode = on;
    const t = $("gp-pencil");
    t.setAttribute("aria-pressed", on ? "true" : "false");
    t.textContent = "Pencil marks: " + (on ? "on" : "off");
  }

  // ---- drawing the state ------------------------------------------------------------------
  function paint(hl) {
    if (hl) lastHL = hl; else hl = lastHL;
    document.querySelectorAll("#gp-board td[data-key]").forEach(function (td) {
      const key = td.dataset.key;
      const given = view.givens[key];
      const tok = given !== undefined ? given : values[key];
      const b = td.firstChild;
      const valEl = b.querySelector(".val");
      td.classList.remove("v0", "v1", "has-pencil");
      const clue = view.drawing.text[key];
      const rc = key.split(",");
      let label = "row " + (+rc[0] + 1) + ", column " + (+rc[1] + 1);
      if (view.mode === "cell") {
        if (tok !== undefined && view.binary) td.classList.add("v" + tok);
        let shown = view.binary ? "" : (tok || "");
        if (view.placed && tok !== undefined) shown = tok === "1" ? view.placed[2] : "·";
        if (clue !== undefined && given !== undefined) shown = clue;
        if (tok === undefined && pencil[key]) { shown = pencil[key].join(" "); td.classList.add("has-pencil"); }
        valEl.textContent = shown;
        label += ": " + describe(tok) + (clue !== undefined && given !== undefined ? " (clue " + clue + ")" : given !== undefined ? " (given)" : "") +
          (tok === undefined && pencil[key] ? " (pencil " + pencil[key].join(" ") + ")" : "");
      } else {
        valEl.textContent = clue !== undefined ? clue : "";
        const sides = edgeSides(+rc[0], +rc[1]);
        if (view.drawing.circles[key]) label += ", " + view.drawing.circles[key] + " pearl";
        if (clue !== undefined) label += ", clue " + clue;
        label += sides.length ? ": " + (view.mode === "edge" ? "lines " : "loop goes ") + sides.join(", ") : ": no line";
      }
      b.setAttribute("aria-label", label);
      td.classList.toggle("wrong", !!(hl.wrong && hl.wrong.has(key)));
      td.classList.toggle("hinted", hl.hinted === key);
      td.classList.toggle("used", !!(hl.used && hl.used.has(key)));
    });
    if (view.mode !== "cell") drawLines(hl);
    const filled = Object.keys(values).length;
    $("gp-count").textContent = filled + " mark" + (filled === 1 ? "" : "s") + " placed";
  }
  function edgeSides(r, c) {
    const out = [];
    const names = view.mode === "edge"
      ? [["top", "h," + r + "," + c], ["bottom", "h," + (r + 1) + "," + c], ["left", "v," + r + "," + c], ["right", "v," + r + "," + (c + 1)]]
      : [["up", "h," + r + "," + c], ["down", "h," + (r + 1) + "," + c], ["left", "v," + r + "," + c], ["right", "v," + r + "," + (c + 1)]];
    names.forEach(function (n) {
      if (values[n[1]] === "1") out.push(n[0]);
      else if (values[n[1]] === "0") out.push(n[0] + " crossed");
    });
    return out;
  }
  function drawLines(hl) {
    const svg = document.querySelector("#gp-board svg.gp-lines");
    if (!svg) return;
    const g = geometry();
    const box = g.stage.querySelector("table").getBoundingClientRect();
    svg.setAttribute("width", Math.ceil(box.right - g.base.left) + 4);
    svg.setAttribute("height", Math.ceil(box.bottom - g.base.top) + 4);
    svg.replaceChildren();
    function line(s, cls, k) {
      const l = document.createElementNS(SVGNS, "line");
      l.setAttribute("x1", s[0]); l.setAttribute("y1", s[1]); l.setAttribute("x2", s[2]); l.setAttribute("y2", s[3]);
      l.setAttribute("class", cls);
      if (k) l.setAttribute("data-edge", k);
      svg.append(l);
    }
    if (view.mode === "edge") {
      g.ys.forEach(function (y) { g.xs.forEach(function (x) {
        const d = document.createElementNS(SVGNS, "circle");
        d.setAttribute("cx", x); d.setAttribute("cy", y); d.setAttribute("r", 2.6); d.setAttribute("class", "dot");
        svg.append(d);
      }); });
    }
    edgeKeys().forEach(function (k) {
      const s = segment(g, k);
      const flags = (hl.wrong && hl.wrong.has(k) ? " wrong" : "") + (hl.hinted === k ? " hinted" : "") + (hl.used && hl.used.has(k) ? " used" : "");
      if (flags) line(s, "mark" + flags);
      if (values[k] === "1") line(s, "on" + flags, k);
      else if (values[k] === "0") {
        const mx = (s[0] + s[2]) / 2, my = (s[1] + s[3]) / 2, d = 4;
        line([mx - d, my - d, mx + d, my + d], "cross" + flags, k);
        line([mx - d, my + d, mx + d, my - d], "cross" + flags);
      }
    });
  }
  window.addEventListener("resize", function () { if (view && view.mode !== "cell") paint(); });

  function show(v) {
    view = v; values = {}; pencil = {}; undo = []; redo = []; lastHL = {};
    setPencil(false);
    updateHistoryButtons();
    PF.showError($("gp-error"), null);
    $("gp-play").hidden = false;
    $("gp-play").dataset.token = v.token;
    $("gp-pdf").href = "/api/grid/" + v.token + "/pdf";
    $("gp-pdf-sol").href = "/api/grid/" + v.token + "/pdf?solution=true";
    $("gp-title").textContent = v.title;
    $("gp-info").textContent = "· " + v.rows + "×" + v.cols + (v.seed !== null ? " · seed " + v.seed : "") +
      (v.difficulty !== null ? " · difficulty " + v.difficulty.toFixed(1) : "");
    $("gp-play-rules").textContent = v.rules;
    const common = " Undo: Ctrl+Z, redo: Ctrl+Y.";
    $("gp-keys").textContent = (v.mode === "edge"
      ? "Click an edge to draw or erase a line, right-click to cross it out; drag along the dots to draw. Keyboard: arrows move between cells, Shift+arrow draws or erases the line on that side, Ctrl+arrow crosses it out."
      : v.mode === "link"
      ? "Drag from cell centre to cell centre to draw the loop (drag over a line to erase); click between two cells to toggle the link, right-click to cross it out. Keyboard: arrows move, Shift+arrow draws or erases the link to the next cell and moves there, Ctrl+arrow crosses it out."
      : v.placed
      ? "Click a cell to cycle empty → " + v.placed[0] + " → " + v.placed[1] + "; right-click for " + v.placed[1] + " first; drag to paint. Keyboard: arrows move, Space cycles, 1 places, 0 or X marks empty, Delete clears."
      : v.binary
      ? "Click a cell to cycle empty → black → white; right-click for white first; drag to paint. Keyboard: arrows move, Space cycles, B or 1 black, W or 0 white, Delete clears."
      : "Click a cell, then type its value or pick it below (" + v.values.join(" ") + "; two-digit values: type both digits quickly). Right-click steps a value down. P toggles pencil marks. Keyboard: arrows move, Delete clears.") + common;
    $("gp-source").textContent = v.text;
    $("gp-url").textContent = v.url ? "puzz.link: " + v.url : "";
    $("gp-pencil").hidden = v.mode !== "cell" || v.binary;
    ["gp-check", "gp-hint", "gp-clear"].forEach(function (id) { $(id).disabled = !v.playable; });
    if (v.playable) build();
    else $("gp-board").replaceChildren(PF.el("pre", { class: "block picture", "aria-label": v.title + " puzzle", text: v.picture }));
    say(v.playable ? "" : "This puzzle cannot be played here; use Reveal to see the solution.", "");
    const first = document.querySelector("#gp-board button");
    if (first) first.focus();
  }

  async function call(path, body) {
    return PF.api("/api/grid/" + view.token + path, body === undefined ? {} : { json: body });
  }

  function showRules() {
    const opt = $("gp-genre").selectedOptions[0];
    if (opt) $("gp-rules").textContent = opt.dataset.rules || "";
    // tiers the generator does not offer for this genre at its default size: greyed out,
    // the reason as the option's tooltip (the server refuses them with the same words)
    const refused = opt && opt.dataset.refused ? JSON.parse(opt.dataset.refused) : {};
    const pick = $("gp-difficulty");
    for (const o of pick.options) {
      o.disabled = Object.prototype.hasOwnProperty.call(refused, o.value);
      o.title = o.disabled ? refused[o.value] : "";
    }
    if (pick.selectedOptions[0] && pick.selectedOptions[0].disabled) pick.value = "any";
  }
  $("gp-genre").addEventListener("change", function () {
    const opt = $("gp-genre").selectedOptions[0];
    $("gp-size").value = opt.dataset.size;
    showRules();
  });
  showRules();

  $("gp-form").addEventListener("submit", async function (ev) {
    ev.preventDefault();
    const body = { genre: $("gp-genre").value, size: $("gp-size").value, difficulty: $("gp-difficulty").value };
    if ($("gp-seed").value !== "") body.seed = $("gp-seed").value;   // a string: 64-bit seeds stay exact
    $("gp-generate").disabled = true;
    status("Generating…");
    try {
      const job = await PF.api("/api/grid/generate", { json: body });
      show(await PF.pollJob(job.id, function (j) { status("Generating… " + j.message); }));
      status("");
    } catch (err) { status(""); PF.showError($("gp-error"), err); }
    finally { $("gp-generate").disabled = false; }
  });

  // a genre file of one's own (the box exists only on a server started with --trust): its
  // text goes to the server, which loads it; the genre list is rebuilt from the answer
  function setGenres(list, pick) {
    const select = $("gp-genre");
    select.replaceChildren.apply(select, list.map(function (g) {
      return PF.el("option", {
        value: g.id, text: g.title, "data-size": g.default_size, "data-even": String(g.even),
        "data-min": g.min, "data-max": g.max, "data-rules": g.rules, "data-refused": JSON.stringify(g.refused),
      });
    }));
    select.value = pick;
    $("gp-size").value = select.selectedOptions[0].dataset.size;
    showRules();
  }
  if ($("gp-genre-form")) $("gp-genre-form").addEventListener("submit", async function (ev) {
    ev.preventDefault();
    const file = $("gp-genre-file").files[0];
    if (!file) return;
    PF.showError($("gp-error"), null);
    status("Loading the genre file…");
    try {
      const res = await PF.api("/api/grid/genre-file", { json: { name: file.name, text: await file.text() } });
      setGenres(res.genres, res.id);
      status("Loaded the genre " + res.title + " (" + res.id + "): pick a size and Generate.");
    } catch (err) { status(""); PF.showError($("gp-error"), err); }
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
      if (res.wrong.length) say(res.wrong.length + " wrong mark(s), highlighted in red.", "error");
      else if (res.solved) say("Solved! Every " + (view.mode === "cell" ? "cell" : "line") + " is correct.", "success");
      else say("No mistakes so far (" + res.filled + " of " + res.cells + " " + (view.mode === "cell" ? "cells" : "edges") + " marked).", "");
    } catch (err) { PF.showError($("gp-error"), err); }
  });

  $("gp-hint").addEventListener("click", async function () {
    try {
      const res = await call("/hint", { values: values });
      if (res.kind === "wrong") { paint({ wrong: new Set(res.wrong) }); say("Hint: " + res.message + ".", "error"); return; }
      if (res.kind !== "step") { paint({}); say(res.message, res.kind === "solved" ? "success" : ""); return; }
      begin(); setValue(res.cell, res.value); commit();
      paint({ hinted: res.cell, used: new Set((res.used || []).concat(res.cells || [])) });
      say("Hint: " + res.reason + (/[.!?]$/.test(res.reason) ? "" : "."), "");
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
      begin();
      Object.keys(values).forEach(function (k) { if (res.values[k] === undefined) setValue(k, null); });
      Object.keys(res.values).forEach(function (k) {
        if (!isGiven(k) && !(view.implicit_zero && view.mode !== "cell" && res.values[k] === "0")) setValue(k, res.values[k]);
      });
      commit();
      paint({});
      say("Solution revealed.", "");
    } catch (err) { PF.showError($("gp-error"), err); }
  });

  $("gp-clear").addEventListener("click", function () {
    begin();
    Object.keys(values).forEach(function (k) { setValue(k, null); });
    Object.keys(pencil).forEach(function (k) { change("p", k, null); });
    commit();
    paint({}); say("", "");
  });
  $("gp-undo").addEventListener("click", doUndo);
  $("gp-redo").addEventListener("click", doRedo);
  $("gp-pencil").addEventListener("click", function () { setPencil(!pencilMode); const b = current(); if (b) b.focus(); });
})();
