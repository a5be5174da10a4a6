// Cross-number page: load (example, upload, paste), solve, draw the grid, list the steps;
// errors in the file are shown with the offending line highlighted and selected.
"use strict";
(function () {
  const $ = function (id) { return document.getElementById(id); };

  function status(text) { $("cn-status").textContent = text; }

  function showLine(err) {
    const listing = $("cn-listing");
    listing.hidden = true;
    if (!err || !err.line) return;
    const text = $("cn-text").value;
    const lines = text.split("\n");
    const n = err.line;
    listing.replaceChildren();
    for (let i = Math.max(1, n - 3); i <= Math.min(lines.length, n + 3); i++) {
      const line = String(i).padStart(4, " ") + " | " + lines[i - 1];
      if (i === n) {
        listing.append(PF.el("span", { class: "bad", text: line + "    ← " + (err.problem || err.message).split("\n")[0] }));
      } else listing.append(line + "\n");
    }
    listing.hidden = false;
    // select the line in the editor so the keyboard user lands on it
    let start = 0;
    for (let i = 0; i < n - 1 && i < lines.length; i++) start += lines[i].length + 1;
    const end = start + (lines[n - 1] || "").length;
    const area = $("cn-text");
    area.focus();
    area.setSelectionRange(start, end);
  }

  function drawGrid(res) {
    const g = res.grid;
    const sol = res.solutions[0] || {};
    const table = PF.el("table", { class: "cn", "aria-label": "Solved grid" });
    for (let r = 0; r < g.rows; r++) {
      const tr = PF.el("tr");
      for (let c = 0; c < g.cols; c++) {
        const cell = g.cells[r][c];
        const cls = [];
        if (!cell.white) cls.push("block");
        if (cell.bar_right) cls.push("bR");
        if (cell.bar_below) cls.push("bB");
        if (cell.given) cls.push("given");
        const value = cell.white ? (sol[r + "," + c] || "") : "";
        const td = PF.el("td", { class: cls.join(" "), "aria-label": cell.white ? "row " + (r + 1) + ", column " + (c + 1) + ": " + (value || "unknown") : "block" });
        if (cell.number) td.append(PF.el("span", { class: "num", text: String(cell.number) }));
        td.append(value);
        tr.append(td);
      }
      table.append(tr);
    }
    $("cn-grid").replaceChildren(table);
  }

  function show(res) {
    $("cn-result").hidden = false;
    $("cn-title").textContent = res.title;
    const stopped = res.stopped_at_time_limit ? " The search stopped at its limit of " + res.time_limit + " CPU s, so the steps below are incomplete." : "";
    const verdict = res.count === 0 ? (res.complete ? "No solution." : "Undecided: the search stopped before finding a solution.") :
      res.unique ? "Unique solution." :
      res.complete ? res.count + " solutions (the first is shown)." : "At least " + res.count + " solution(s); the search stopped at its limit.";
    $("cn-summary").textContent = verdict + stopped + " Solved in " + res.seconds + " s with " + res.steps.length + " logged steps.";
    drawGrid(res);
    const vals = $("cn-values");
    vals.replaceChildren();
    Object.entries(res.values).forEach(function (kv) { vals.append(PF.el("div", { text: kv[0] + " = " + kv[1] })); });
    Object.entries(res.variables).forEach(function (kv) { vals.append(PF.el("div", { text: kv[0] + " = " + kv[1] + " (variable)" })); });
    const list = $("cn-steps");
    list.replaceChildren();
    res.steps.forEach(function (s) { list.append(PF.el("li", { text: s.text })); });
    if (res.dropped_steps) list.append(PF.el("li", { class: "muted", text: res.dropped_steps + " more steps not shown" }));
  }

  $("cn-form").addEventListener("submit", async function (ev) {
    ev.preventDefault();
    PF.showError($("cn-error"), null);
    $("cn-listing").hidden = true;
    $("cn-solve").disabled = true;
    status("Solving…");
    try {
      const job = await PF.api("/api/crossnumber/solve", { json: { text: $("cn-text").value, name: $("cn-text").dataset.name || "puzzle.yaml" } });
      show(await PF.pollJob(job.id, function (j) { status("Solving… " + j.message); }));
      status("");
    } catch (err) {
      status("");
      $("cn-result").hidden = true;
      PF.showError($("cn-error"), err);
      showLine(err);
    } finally { $("cn-solve").disabled = false; }
  });

  const exampleForm = $("cn-example-form");
  if (exampleForm) exampleForm.addEventListener("submit", async function (ev) {
    ev.preventDefault();
    try {
      const res = await PF.api("/api/crossnumber/example", { json: { name: $("cn-example").value } });
      $("cn-text").value = res.text;
      $("cn-text").dataset.name = res.name + ".yaml";
      status("Loaded example " + res.name + "; press Solve.");
      $("cn-solve").focus();
    } catch (err) { PF.showError($("cn-error"), err); }
  });

  $("cn-file").addEventListener("change", function () {
    const file = $("cn-file").files[0];
    if (!file) return;
    if (file.size > +$("cn-file").dataset.max) {
      PF.showError($("cn-error"), { kind: "too large", message: file.name + " is larger than the limit of " + Math.round($("cn-file").dataset.max / 1024) + " KB" });
      return;
    }
    const reader = new FileReader();
    reader.onload = function () {
      $("cn-text").value = reader.result;
      $("cn-text").dataset.name = file.name;
      status("Read " + file.name + "; press Solve.");
    };
    reader.readAsText(file);
  });
})();
