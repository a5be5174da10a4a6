// Logic-grid page: generate (with progress), play the staircase grid, check, hint,
// walk through the explained solution, rename objects, download PDFs.
"use strict";
(function () {
  const $ = function (id) { return document.getElementById(id); };
  const SYMBOL = { x: "×", o: "●" };
  let view = null, marks = {}, saved = null, steps = null, pos = 0;

  function key(c1, i1, c2, i2) { return c1 < c2 ? [c1, i1, c2, i2].join(".") : [c2, i2, c1, i1].join("."); }
  function name(c, i) { return view.categories[c].items[i]; }
  function say(text, cls) {
    const box = $("lg-result");
    box.className = cls || "";
    box.textContent = text;
  }

  // ---- grid --------------------------------------------------------------------
  function buildGrid() {
    const K = view.K, k = view.k, top = view.layout.top, left = view.layout.left;
    // more than 20 columns of cells (e.g. 6x6) get smaller cells so the grid and the clue
    // list fit side by side in a 1280 px window
    const dense = top.length * k > 20;
    const table = PF.el("table", { class: "lg" + (dense ? " dense" : ""), role: "grid", "aria-labelledby": "grid-h" });
    const h1 = PF.el("tr"), h2 = PF.el("tr");
    h1.append(PF.el("th", { colspan: 2, rowspan: 2 }));
    top.forEach(function (T) {
      h1.append(PF.el("th", { class: "cat-top", colspan: k, scope: "colgroup", text: view.categories[T].title }));
      for (let j = 0; j < k; j++) h2.append(PF.el("th", { class: "top", scope: "col" }, [PF.el("span", { text: name(T, j) })]));
    });
    table.append(h1, h2);
    let r = 0;
    left.forEach(function (L) {
      for (let i = 0; i < k; i++, r++) {
        const tr = PF.el("tr");
        if (i === 0) tr.append(PF.el("th", { class: "cat-left", rowspan: k, scope: "rowgroup", text: view.categories[L].title }));
        tr.append(PF.el("th", { class: "left", scope: "row", text: name(L, i) }));
        let c = 0;
        top.forEach(function (T) {
          for (let j = 0; j < k; j++, c++) {
            if (!(L === 0 || T < L)) { tr.append(PF.el("td", { class: "none" })); continue; }
            const cellKey = key(L, i, T, j);
            const td = PF.el("td", { "data-key": cellKey, class: (j === k - 1 ? "box-r " : "") + (i === k - 1 ? "box-b" : "") });
            const button = PF.el("button", { type: "button", tabindex: "-1", "data-key": cellKey,
              "data-r": r, "data-c": c, "data-label": name(L, i) + " / " + name(T, j) });
            button.addEventListener("click", function () { cycle(cellKey); });
            td.append(button);
            tr.append(td);
          }
        });
        table.append(tr);
      }
    });
    $("lg-grid").replaceChildren(table);
    const first = table.querySelector("button");
    if (first) first.tabIndex = 0;
    table.addEventListener("keydown", onKey);
    paint();
  }

  function paint(highlight) {
    highlight = highlight || {};
    document.querySelectorAll("#lg-grid td[data-key]").forEach(function (td) {
      const k = td.dataset.key, m = marks[k];
      const b = td.firstChild;
      b.textContent = m ? SYMBOL[m] : "";
      b.setAttribute("aria-label", b.dataset.label + ": " + (m === "o" ? "paired" : m === "x" ? "not paired" : "empty"));
      td.classList.toggle("mark-o", m === "o");
      td.classList.toggle("mark-x", m === "x");
      td.classList.toggle("wrong", !!(highlight.wrong && highlight.wrong.has(k)));
      td.classList.toggle("hinted", !!(highlight.hinted && highlight.hinted.has(k)));
      td.classList.toggle("used", !!(highlight.used && highlight.used.has(k)));
    });
  }

  function cycle(cellKey) {
    if (saved) return;
    const m = marks[cellKey];
    if (!m) marks[cellKey] = "x"; else if (m === "x") marks[cellKey] = "o"; else delete marks[cellKey];
    paint();
  }

  function onKey(ev) {
    const b = ev.target.closest("button[data-key]");
    if (!b) return;
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (moves[ev.key]) {
      ev.preventDefault();
      let r = +b.dataset.r, c = +b.dataset.c;
      for (let n = 0; n < 60; n++) {
        r += moves[ev.key][0]; c += moves[ev.key][1];
        const next = document.querySelector('#lg-grid button[data-r="' + r + '"][data-c="' + c + '"]');
        if (next) { b.tabIndex = -1; next.tabIndex = 0; next.focus(); return; }
      }
      return;
    }
    if (saved) return;
    const k = b.dataset.key;
    if (ev.key === " " || ev.key === "Enter") { ev.preventDefault(); cycle(k); }
    else if (ev.key === "x" || ev.key === "X") { marks[k] = "x"; paint(); }
    else if (ev.key === "o" || ev.key === "O" || ev.key === ".") { marks[k] = "o"; paint(); }
    else if (ev.key === "Delete" || ev.key === "Backspace") { delete marks[k]; paint(); }
  }

  // ---- clues, rename, pdf ---------------------------------------------------------
  function showClues(current) {
    const list = $("lg-clues");
    list.replaceChildren();
    view.clues.forEach(function (c) {
      list.append(PF.el("li", { value: c.id, class: current && current.has(c.id) ? "current" : "", text: c.text }));
    });
  }

  function buildRename() {
    const form = $("lg-rename");
    form.replaceChildren();
    view.categories.forEach(function (cat, c) {
      const fs = PF.el("fieldset", { "data-cat": c }, [PF.el("legend", { text: "Category " + (c + 1) })]);
      fs.append(PF.el("label", { text: "Title " }, [PF.el("input", { type: "text", class: "title", value: cat.title, "aria-label": "Title of category " + (c + 1) })]));
      fs.append(PF.el("br"));
      if (cat.kind === "numerical") {
        fs.append(PF.el("label", { text: "Unit (@ = the number) " }, [PF.el("input", { type: "text", class: "template", value: cat.template, "aria-label": "Unit template of category " + (c + 1) })]));
      } else {
        cat.items.forEach(function (item, i) {
          fs.append(PF.el("input", { type: "text", class: "item", value: item, "aria-label": "Object " + (i + 1) + " of category " + (c + 1) }));
        });
      }
      form.append(fs);
    });
    form.append(PF.el("button", { type: "submit", text: "Apply names" }));
  }

  async function rename(ev) {
    ev.preventDefault();
    const categories = Array.from(document.querySelectorAll("#lg-rename fieldset")).map(function (fs) {
      const out = { title: fs.querySelector(".title").value };
      const tpl = fs.querySelector(".template");
      if (tpl) out.template = tpl.value;
      else out.items = Array.from(fs.querySelectorAll(".item")).map(function (i) { return i.value; });
      return out;
    });
    try {
      show(await PF.api("/api/logic-grid/" + view.token + "/rename", { json: { categories: categories } }), true);
      say("Names updated; the clues and the PDF use them now.", "success");
    } catch (err) { PF.showError($("lg-error"), err); }
  }

  function show(v, keepMarks) {
    view = v;
    if (!keepMarks) { marks = {}; saved = null; steps = null; }
    PF.showError($("lg-error"), null);
    $("lg-play").hidden = false;
    const r = v.rating || {};
    $("lg-info").textContent = "· " + v.K + "×" + v.k + " · seed " + v.seed + (r.tier ? " · " + r.tier + " (" + "★".repeat(r.stars || 0) + ")" : "");
    $("lg-question").textContent = v.question;
    buildGrid();
    showClues();
    buildRename();
    const links = $("lg-pdf-links");
    links.replaceChildren();
    if (v.pdf) {
      links.append(PF.el("a", { class: "button", id: "lg-pdf", href: "/api/logic-grid/" + v.token + "/pdf", download: "" , text: "Download PDF sheet" }), " ",
                   PF.el("a", { class: "button secondary", id: "lg-pdf-solution", href: "/api/logic-grid/" + v.token + "/pdf?solution=true", download: "", text: "Download solution PDF" }));
    } else links.append(PF.el("span", { class: "muted", text: "PDF sheets are not available in this installation." }));
  }

  // ---- actions --------------------------------------------------------------------
  async function check() {
    try {
      const res = await PF.api("/api/logic-grid/" + view.token + "/check", { json: { marks: marks } });
      paint({ wrong: new Set(res.wrong) });
      if (res.wrong.length) say(res.wrong.length + " wrong mark(s), highlighted in red.", "error");
      else if (res.solved) say("Solved! Every pairing is correct.", "success");
      else say("No wrong marks so far (" + res.marked + " of " + res.cells + " cells marked).", "");
    } catch (err) { PF.showError($("lg-error"), err); }
  }

  async function hint() {
    try {
      const res = await PF.api("/api/logic-grid/" + view.token + "/hint", { json: { marks: marks } });
      if (res.kind === "wrong") { paint({ wrong: new Set(res.wrong) }); say("Hint: " + res.message + " (highlighted in red).", "error"); return; }
      if (res.kind !== "step") { say(res.message, res.kind === "solved" ? "success" : ""); return; }
      const step = res.step;
      step.marks.forEach(function (m) { marks[m.cell] = m.mark; });
      paint({ hinted: new Set(step.marks.map(function (m) { return m.cell; })), used: new Set(step.used.map(function (m) { return m.cell; })) });
      showClues(new Set(step.clues.map(function (c) { return c.id; })));
      say("Hint: " + step.summary, "");
    } catch (err) { PF.showError($("lg-error"), err); }
  }

  function walkTo(n) {
    pos = Math.max(0, Math.min(steps.length, n));
    marks = {};
    for (let i = 0; i < pos; i++) steps[i].marks.forEach(function (m) { marks[m.cell] = m.mark; });
    const cur = pos > 0 ? steps[pos - 1] : null;
    paint(cur ? { hinted: new Set(cur.marks.map(function (m) { return m.cell; })), used: new Set(cur.used.map(function (m) { return m.cell; })) } : {});
    showClues(cur ? new Set(cur.clues.map(function (c) { return c.id; })) : null);
    document.querySelectorAll("#lg-step-list li").forEach(function (li, i) { li.classList.toggle("current", i === pos - 1); });
    $("lg-walk-pos").textContent = pos === 0 ? "Empty grid: press Next step." : "Step " + pos + " of " + steps.length + ": " + cur.summary;
    $("lg-prev").disabled = pos === 0;
    $("lg-next").disabled = pos === steps.length;
    if (pos === steps.length) say("The walkthrough reached the solution.", "success");
  }

  async function walk() {
    try {
      if (!steps) steps = (await PF.api("/api/logic-grid/" + view.token + "/steps")).steps;
      if (!saved) saved = marks;
      const list = $("lg-step-list");
      list.replaceChildren();
      steps.forEach(function (s) { list.append(PF.el("li", { text: s.summary })); });
      $("lg-walk").hidden = false;
      say("Walking through the solution; your marks are kept aside.", "");
      walkTo(0);
      $("lg-next").focus();
    } catch (err) { PF.showError($("lg-error"), err); }
  }

  function back() {
    if (saved) marks = saved;
    saved = null;
    $("lg-walk").hidden = true;
    showClues();
    paint();
    say("", "");
  }

  $("lg-form").addEventListener("submit", async function (ev) {
    ev.preventDefault();
    const body = { K: +$("lg-K").value, k: +$("lg-k").value, difficulty: $("lg-difficulty").value, lang: $("lg-lang").value };
    if ($("lg-seed").value !== "") body.seed = $("lg-seed").value;   // a string: 64-bit seeds stay exact
    $("lg-generate").disabled = true;
    $("lg-progress-box").hidden = false;
    PF.showError($("lg-error"), null);
    try {
      const job = await PF.api("/api/logic-grid/generate", { json: body });
      const v = await PF.pollJob(job.id, function (j) {
        $("lg-progress").value = j.progress;
        $("lg-progress-label").textContent = "Generating… " + Math.round(j.progress * 100) + "% (" + j.message + ")";
      });
      show(v, false);
      say("", "");
    } catch (err) { PF.showError($("lg-error"), err); }
    finally { $("lg-generate").disabled = false; $("lg-progress-box").hidden = true; }
  });
  $("lg-check").addEventListener("click", check);
  $("lg-hint").addEventListener("click", hint);
  $("lg-steps").addEventListener("click", walk);
  $("lg-clear").addEventListener("click", function () { if (!saved) { marks = {}; paint(); say("", ""); } });
  $("lg-prev").addEventListener("click", function () { walkTo(pos - 1); });
  $("lg-next").addEventListener("click", function () { walkTo(pos + 1); });
  $("lg-back").addEventListener("click", back);
  $("lg-rename").addEventListener("submit", rename);
})();
