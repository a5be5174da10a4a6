// Dataset page: open a JSONL file, search its records, show one record in full.
"use strict";
(function () {
  const $ = function (id) { return document.getElementById(id); };
  const PAGE = 50;
  let token = null, offset = 0, total = 0, current = null;

  function setStatus(text) { $("ds-status").textContent = text; }

  function opened(view) {
    token = view.token;
    PF.showError($("ds-error"), null);
    setStatus("Opened " + view.name + ": " + view.count + " puzzles" +
      (view.problem_count ? ", " + view.problem_count + " bad lines" : "") + ".");
    const problems = $("ds-problems");
    problems.replaceChildren();
    view.problems.forEach(function (p) {
      problems.append(PF.el("li", { text: (p.line ? "line " + p.line + ": " : "") + p.message }));
    });
    $("ds-name").textContent = view.name;
    const fam = $("ds-family");
    fam.replaceChildren(PF.el("option", { value: "", text: "all" }));
    view.families.forEach(function (f) { fam.append(PF.el("option", { value: f, text: f })); });
    $("browser").hidden = view.count === 0;
    offset = 0;
    load(true);
  }

  async function load(selectFirst) {
    const params = new URLSearchParams({ q: $("ds-q").value, family: $("ds-family").value,
                                         offset: String(offset), limit: String(PAGE) });
    try {
      const page = await PF.api("/api/datasets/" + token + "/records?" + params);
      total = page.total;
      const list = $("ds-list");
      list.replaceChildren();
      page.items.forEach(function (item) {
        const button = PF.el("button", { type: "button", "data-index": item.index }, [
          PF.el("span", { class: "fam", text: "#" + item.index + " " + item.family }),
          PF.el("span", { class: "muted", text: (item.difficulty !== null && item.difficulty !== undefined ? "difficulty " + item.difficulty + " · " : "") + item.id }),
          PF.el("br"), PF.el("span", { text: String(item.question).replace(/\*\*/g, "") })]);
        button.addEventListener("click", function () { show(item.index, button); });
        list.append(PF.el("li", {}, [button]));
      });
      $("ds-count").textContent = total === 0 ? "No puzzle matches." :
        "Showing " + (offset + 1) + "–" + (offset + page.items.length) + " of " + total + ".";
      $("ds-prev").disabled = offset === 0;
      $("ds-next").disabled = offset + PAGE >= total;
      if (selectFirst && page.items.length) show(page.items[0].index, list.querySelector("button"));
    } catch (err) { PF.showError($("ds-error"), err); }
  }

  function section(title, body, cls) {
    return [PF.el("h3", { text: title }), PF.el("pre", { class: cls || "", text: body })];
  }

  // **bold** (as zebra questions write it) shown bold; everything else stays plain text.
  function richSection(title, body, cls) {
    const pre = PF.el("pre", { class: cls || "" });
    String(body).split("**").forEach(function (part, i) {
      pre.append(i % 2 === 1 ? PF.el("strong", { text: part }) : document.createTextNode(part));
    });
    return [PF.el("h3", { text: title }), pre];
  }

  async function show(index, button) {
    try {
      const rec = await PF.api("/api/datasets/" + token + "/records/" + index);
      current = index;
      document.querySelectorAll("#ds-list button").forEach(function (b) { b.removeAttribute("aria-current"); });
      if (button) button.setAttribute("aria-current", "true");
      const box = $("ds-record");
      box.replaceChildren();
      box.append(PF.el("h2", { text: "Puzzle #" + rec.index + " · " + rec.family }));
      const meta = PF.el("dl");
      [["id", rec.id], ["line", rec.line], ["difficulty", rec.difficulty], ["seed", rec.seed]].forEach(function (kv) {
        meta.append(PF.el("dt", { text: kv[0] }), PF.el("dd", { text: kv[1] === null || kv[1] === undefined ? "—" : String(kv[1]) }));
      });
      box.append(meta);
      richSection("Question", rec.question, "question").forEach(function (n) { box.append(n); });
      section("Answer", rec.answer, "answer").forEach(function (n) { box.append(n); });
      if (rec.explanation) {
        box.append(PF.el("h3", { text: "Explanation" }));
        if (Array.isArray(rec.explanation)) {
          const ol = PF.el("ol", { class: "steps" });
          rec.explanation.forEach(function (s) { ol.append(PF.el("li", { text: PF.pretty(s) })); });
          box.append(ol);
        } else box.append(PF.el("pre", { text: PF.pretty(rec.explanation) }));
      } else if (rec.explainable) {
        const holder = PF.el("div", { id: "ds-derived" });
        const button = PF.el("button", { type: "button", class: "secondary", text: "Explain with the solver" });
        button.addEventListener("click", async function () {
          button.disabled = true;
          holder.replaceChildren(PF.el("p", { class: "muted", text: "Solving step by step…" }));
          try {
            const res = await PF.api("/api/datasets/" + token + "/records/" + rec.index + "/explain");
            const ol = PF.el("ol", { class: "steps" });
            res.steps.forEach(function (s) { ol.append(PF.el("li", { text: s })); });
            holder.replaceChildren(ol);
          } catch (err) { holder.replaceChildren(); PF.showError($("ds-error"), err); button.disabled = false; }
        });
        box.append(PF.el("h3", { text: "Explanation" }), PF.el("p", { class: "muted", text: "The record stores none; the engine can derive one." }), button, holder);
      } else {
        box.append(PF.el("h3", { text: "Explanation" }), PF.el("p", { class: "muted", text: "This record carries no explanation." }));
      }
      const details = PF.el("details", {}, [PF.el("summary", { text: "Metadata: params, config, meta, solution" })]);
      [["params", rec.params], ["config", rec.config], ["meta", rec.meta], ["solution", rec.solution]].forEach(function (kv) {
        section(kv[0], PF.pretty(kv[1])).forEach(function (n) { details.append(n); });
      });
      if (Object.keys(rec.extra || {}).length) section("other fields", PF.pretty(rec.extra)).forEach(function (n) { details.append(n); });
      box.append(details);
    } catch (err) { PF.showError($("ds-error"), err); }
  }

  $("upload-form").addEventListener("submit", async function (ev) {
    ev.preventDefault();
    const file = $("ds-file").files[0];
    if (!file) { PF.showError($("ds-error"), { kind: "no file", message: "Choose a .jsonl file first." }); return; }
    const form = new FormData();
    form.append("file", file);
    setStatus("Reading " + file.name + "…");
    try { opened(await PF.api("/api/datasets/upload", { method: "POST", body: form })); }
    catch (err) { setStatus(""); PF.showError($("ds-error"), err); }
  });

  $("listed-form").addEventListener("submit", async function (ev) {
    ev.preventDefault();
    setStatus("Reading " + $("ds-listed").value + "…");
    try { opened(await PF.api("/api/datasets/open", { json: { name: $("ds-listed").value } })); }
    catch (err) { setStatus(""); PF.showError($("ds-error"), err); }
  });

  $("search-form").addEventListener("submit", function (ev) { ev.preventDefault(); offset = 0; load(true); });
  $("ds-family").addEventListener("change", function () { offset = 0; load(true); });
  $("ds-prev").addEventListener("click", function () { offset = Math.max(0, offset - PAGE); load(true); });
  $("ds-next").addEventListener("click", function () { offset += PAGE; load(true); });
  $("ds-list").addEventListener("keydown", function (ev) {
    if (ev.key !== "ArrowDown" && ev.key !== "ArrowUp") return;
    const buttons = Array.from(document.querySelectorAll("#ds-list button"));
    const at = buttons.indexOf(document.activeElement);
    const next = buttons[Math.max(0, Math.min(buttons.length - 1, at + (ev.key === "ArrowDown" ? 1 : -1)))];
    if (next) { ev.preventDefault(); next.focus(); next.click(); }
  });

  PF.api("/api/datasets/files").then(function (listing) {
    if (!listing.files.length) return;
    $("ds-folder").textContent = listing.folder;
    const select = $("ds-listed");
    listing.files.forEach(function (f) { select.append(PF.el("option", { value: f.name, text: f.name })); });
    $("listed-form").hidden = false;
  }).catch(function (err) { PF.showError($("ds-error"), err); });
})();
