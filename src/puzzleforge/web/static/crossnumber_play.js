// Cross-number play: the puzzle file in the editor (or a generated one) on a grid of
// buttons with its clue list; type digits, check, hint (one revealed cell and its clue),
// reveal, undo. The solution stays on the server; cells are keyed "r,c" (0-based).
"use strict";
(function () {
  const $ = function (id) { return document.getElementById(id); };
  let view = null, values = {}, undo = [], typed = { key: null, text: "", at: 0 }, hl = {};
  let across = true;   // where typing moves next: along the entry across, or down

  function say(text, cls) { const b = $("cnp-result"); b.className = cls || ""; b.textContent = text; }
  function status(text) { $("cn-status").textContent = text; }

  function set(key, tok, record) {
    if (view.givens[key] !== undefined) return;
    const before = values[key] === undefined ? null : values[key];
    if (before === tok) return;
    if (tok === null) delete values[key]; else values[key] = tok;
    if (record !== false) undo.push([{ key: key, before: before, after: tok }]);
    $("cnp-undo").disabled = !undo.length;
  }

  function build() {
    const g = view.grid;
    const table = PF.el("table", { class: "cn cnp", role: "grid", "aria-label": "Cross-number grid to fill" });
    let first = true;
    for (let r = 0; r < g.rows; r++) {
      const tr = PF.el("tr");
      for (let c = 0; c < g.cols; c++) {
        const cell = g.cells[r][c], key = r + "," + c;
        const cls = [];
        if (!cell.white) cls.push("block");
        if (cell.bar_right) cls.push("bR");
        if (cell.bar_below) cls.push("bB");
        if (view.givens[key] !== undefined) cls.push("given");
        const td = PF.el("td", { class: cls.join(" "), "data-key": key });
        if (cell.number) td.append(PF.el("span", { class: "num", "aria-hidden": "true", text: String(cell.number) }));
        if (cell.white) {
          const b = PF.el("button", { type: "button", "data-key": key, "data-r": r, "data-c": c, tabindex: first ? "0" : "-1" });
          first = false;
          b.append(PF.el("span", { class: "val" }));
          b.addEventListener("click", function () { focusCell(b); });
          td.append(b);
        }
        tr.append(td);
      }
      table.append(tr);
    }
    table.addEventListener("keydown", onKey);
    $("cnp-grid").replaceChildren(table);
    const lists = { across: $("cnp-across"), down: $("cnp-down") };
    lists.across.replaceChildren(); lists.down.replaceChildren();
    view.clues.forEach(function (cl) {
      const list = lists[cl.direction] || lists.across;
      const b = PF.el("button", { type: "button", class: "clue", "data-clue": cl.name },
        [PF.el("strong", { text: cl.name + " " }), document.createTextNode(cl.text)]);
      b.addEventListener("click", function () {
        setDirection(cl.direction !== "down");
        paint({ used: new Set(cl.cells), clue: cl.name });
        const first = cl.cells.length && document.querySelector('#cnp-grid button[data-key="' + cl.cells[0] + '"]');
        if (first) focusCell(first);
      });
      list.append(PF.el("li", {}, [b]));
    });
    paint({});
  }

  function paint(h) {
    if (h) hl = h; else h = hl;
    document.querySelectorAll("#cnp-grid td[data-key]").forEach(function (td) {
      const key = td.dataset.key, b = td.querySelector("button");
      td.classList.toggle("wrong", !!(h.wrong && h.wrong.has(key)));
      td.classList.toggle("hinted", h.hinted === key);
      td.classList.toggle("used", !!(h.used && h.used.has(key)));
      if (!b) return;
      const given = view.givens[key], tok = given !== undefined ? given : values[key];
      b.querySelector(".val").textContent = tok || "";
      const rc = key.split(",");
      b.setAttribute("aria-label", "row " + (+rc[0] + 1) + ", column " + (+rc[1] + 1) + ": " + (tok || "empty") + (given !== undefined ? " (given)" : ""));
    });
    document.querySelectorAll("#cnp-clues button.clue").forEach(function (b) {
      b.classList.toggle("current", b.dataset.clue === h.clue);
    });
    const n = Object.keys(values).length;
    $("cnp-count").textContent = n + " cell" + (n === 1 ? "" : "s") + " filled";
  }

  function focusCell(b) {
    document.querySelectorAll('#cnp-grid button[tabindex="0"]').forEach(function (x) { x.tabIndex = -1; });
    b.tabIndex = 0;
    b.focus();
  }

  function setDirection(isAcross) {
    across = isAcross;
    $("cnp-dir").textContent = "Typing moves " + (across ? "across" : "down") + " (Space turns it).";
  }

  function advance(b) {
    // after a complete value, go to the next cell of the same entry (no bar, no block)
    const r = +b.dataset.r, c = +b.dataset.c, cell = view.grid.cells[r][c];
    const next = across ? (c + 1 < view.grid.cols && !cell.bar_right ? [r, c + 1] : null)
      : (r + 1 < view.grid.rows && !cell.bar_below ? [r + 1, c] : null);
    const nb = next && document.querySelector('#cnp-grid button[data-r="' + next[0] + '"][data-c="' + next[1] + '"]');
    if (nb) focusCell(nb);
  }

  function typeDigit(b, digit) {
    // digits typed quickly into one cell join into one value when the grid allows it (0..16)
    const key = b.dataset.key, now = Date.now();
    let joined = typed.key === key && now - typed.at < 1500 ? typed.text + digit : digit;
    if (joined !== digit && view.values.indexOf(joined) < 0) joined = digit;
    if (view.values.indexOf(joined) < 0) return;
    typed = { key: key, text: joined, at: now };
    set(key, joined);
    paint();
    const longer = view.values.some(function (v) { return v.length > joined.length && v.indexOf(joined) === 0; });
    if (!longer) { typed = { key: null, text: "", at: 0 }; advance(b); }
  }

  function onKey(ev) {
    const b = ev.target.closest("button[data-key]");
    if (!b) return;
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (moves[ev.key]) {
      ev.preventDefault();
      let r = +b.dataset.r, c = +b.dataset.c;
      for (;;) {   // skip blocks
        r += moves[ev.key][0]; c += moves[ev.key][1];
        if (r < 0 || c < 0 || r >= view.grid.rows || c >= view.grid.cols) return;
        const next = document.querySelector('#cnp-grid button[data-r="' + r + '"][data-c="' + c + '"]');
        if (next) { focusCell(next); return; }
      }
    }
    if ((ev.ctrlKey || ev.metaKey) && ev.key.toLowerCase() === "z") { ev.preventDefault(); doUndo(); return; }
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (ev.key === " ") { ev.preventDefault(); setDirection(!across); return; }
    if (ev.key === "Delete" || ev.key === "Backspace") { ev.preventDefault(); set(b.dataset.key, null); paint(); }
    else if (/^[0-9]$/.test(ev.key)) { ev.preventDefault(); typeDigit(b, ev.key); }
  }

  function doUndo() {
    const g = undo.pop();
    if (!g) return;
    g.slice().reverse().forEach(function (s) { if (s.before === null) delete values[s.key]; else values[s.key] = s.before; });
    $("cnp-undo").disabled = !undo.length;
    paint();
  }

  function show(v) {
    view = v; values = {}; undo = []; hl = {};
    setDirection(true);
    $("cnp-undo").disabled = true;
    $("cn-play").hidden = false;
    $("cn-play").dataset.token = v.token;
    $("cnp-pdf").href = "/api/crossnumber/" + v.token + "/pdf";
    $("cnp-pdf-sol").href = "/api/crossnumber/" + v.token + "/pdf?solution=true";
    $("cnp-title").textContent = v.title + (v.seed ? " · seed " + v.seed : "");
    $("cnp-notes").textContent = v.variables.length ? "Variables to find on the way: " + v.variables.join(", ") + "." : "";
    say("", "");
    build();
    const first = document.querySelector("#cnp-grid button");
    if (first) first.focus();
  }

  async function call(path, body) {
    return PF.api("/api/crossnumber/" + view.token + path, body === undefined ? {} : { json: body });
  }

  $("cn-play-btn").addEventListener("click", async function () {
    PF.showError($("cn-error"), null);
    status("Preparing the puzzle (solving it to check your answers)…");
    try {
      const job = await PF.api("/api/crossnumber/play", { json: { text: $("cn-text").value, name: $("cn-text").dataset.name || "puzzle.yaml" } });
      show(await PF.pollJob(job.id, function (j) { status("Preparing… " + j.message); }));
      status("");
    } catch (err) { status(""); PF.showError($("cn-error"), err); }
  });

  $("cn-gen-form").addEventListener("submit", async function (ev) {
    ev.preventDefault();
    PF.showError($("cn-error"), null);
    const body = { size: +$("cn-gen-size").value };
    if ($("cn-gen-seed").value !== "") body.seed = $("cn-gen-seed").value;   // a string: 64-bit seeds stay exact
    status("Generating…");
    try {
      const job = await PF.api("/api/crossnumber/generate", { json: body });
      const v = await PF.pollJob(job.id, function (j) { status("Generating… " + j.message); });
      $("cn-text").value = v.text;
      $("cn-text").dataset.name = "generated.yaml";
      show(v);
      status("");
    } catch (err) { status(""); PF.showError($("cn-error"), err); }
  });

  $("cnp-check").addEventListener("click", async function () {
    try {
      const res = await call("/check", { values: values });
      paint({ wrong: new Set(res.wrong) });
      if (res.wrong.length) say(res.wrong.length + " wrong cell(s), highlighted in red.", "error");
      else if (res.solved) say("Solved! Every cell is correct.", "success");
      else say("No mistakes so far (" + res.filled + " of " + res.cells + " cells filled).", "");
    } catch (err) { PF.showError($("cn-error"), err); }
  });

  $("cnp-hint").addEventListener("click", async function () {
    try {
      const res = await call("/hint", { values: values });
      if (res.kind === "wrong") { paint({ wrong: new Set(res.wrong) }); say("Hint: " + res.message + ".", "error"); return; }
      if (res.kind !== "step") { paint({}); say(res.message, res.kind === "solved" ? "success" : ""); return; }
      set(res.cell, res.value);
      paint({ hinted: res.cell, used: new Set(res.used || []), clue: res.clue });
      say("Hint: " + res.reason + ".", "");
    } catch (err) { PF.showError($("cn-error"), err); }
  });

  $("cnp-reveal").addEventListener("click", async function () {
    try {
      const res = await call("/solution");
      const group = [];
      Object.keys(res.values).forEach(function (k) {
        group.push({ key: k, before: values[k] === undefined ? null : values[k], after: res.values[k] });
        values[k] = res.values[k];
      });
      undo.push(group);
      $("cnp-undo").disabled = false;
      paint({});
      say("Solution revealed.", "");
    } catch (err) { PF.showError($("cn-error"), err); }
  });

  $("cnp-clear").addEventListener("click", function () {
    const group = Object.keys(values).map(function (k) { return { key: k, before: values[k], after: null }; });
    values = {};
    if (group.length) undo.push(group);
    $("cnp-undo").disabled = !undo.length;
    paint({}); say("", "");
  });
  $("cnp-undo").addEventListener("click", doUndo);
})();
