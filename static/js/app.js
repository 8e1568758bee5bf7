/* Only what the browser alone can do (the server renders the rest, htmx swaps it in): steppers
   (a long press repeats), character pickers, copy, and the score form kept through reload/Back. */
(() => {
  "use strict";
  // Sentences in the page's language (base.html's #js-words); English if they are missing.
  const word = (key, english) => { try { return JSON.parse(document.getElementById("js-words").textContent)[key] || english; } catch (err) { return english; } };
  document.documentElement.classList.add("js");
  const $$ = (sel, root) => Array.from((root || document).querySelectorAll(sel));
  const on = (type, fn, capture) => document.addEventListener(type, fn, capture);
  const store = (key, value) => { try { return value === undefined ? sessionStorage.getItem(key) : value === null ? sessionStorage.removeItem(key) : sessionStorage.setItem(key, value); } catch (err) { return null; } };

  // -- steppers: a tap steps once, a long press keeps stepping; a typed number replaces the count
  function step(b) {
    const input = document.getElementById(b.dataset.for);
    const v = parseInt(input.value, 10) || 0;
    input.value = String(Math.max(0, v + parseInt(b.dataset.step, 10)));
    input.dispatchEvent(new Event("change", { bubbles: true }));
  }
  let held = null, repeated = false;
  on("pointerdown", (e) => {
    const b = e.target.closest && e.target.closest("button[data-step]");
    if (!b) return;
    repeated = false;
    const again = (wait) => { held = setTimeout(() => { repeated = true; step(b); again(120); }, wait); };
    again(450);
  });
  ["pointerup", "pointercancel", "pointerleave"].forEach((t) => on(t, () => clearTimeout(held), true));
  on("click", (e) => {
    const b = e.target.closest && e.target.closest("button[data-step]");
    if (b) { e.preventDefault(); if (!repeated) step(b); repeated = false; }
  });
  on("focusin", (e) => { if (e.target.matches("input.count")) e.target.select(); });
  on("keydown", (e) => {  // Enter in a box: done typing, no page reload (without htmx Enter posts)
    if (e.key !== "Enter" || !window.htmx || !e.target.matches("#score-form input[type=text]")) return;
    e.preventDefault();
    e.target.dispatchEvent(new Event("change", { bubbles: true }));
    e.target.blur();
  });

  // -- a tile picture that cannot load leaves its words (id, "face down") instead of a broken-image
  //    icon; a listener here, since the security policy refuses inline onerror= handlers
  on("error", (e) => { if (e.target instanceof HTMLImageElement && e.target.closest(".ttile")) e.target.remove(); }, true);

  // -- character pickers: show the pick in the summary, then open the next empty one
  function showPick(radio, quiet) {
    const details = radio.closest("details"), label = radio.closest(".pick");
    const summary = details.querySelector("summary"), name = label.dataset.name || "";
    summary.querySelector(".picker-chosen").textContent = name || "…";
    const pickers = $$("details[data-picker]", details.parentNode), index = pickers.indexOf(details);
    const box = label.querySelector(".art-box");
    if (box) summary.querySelector(".art-box").replaceWith(Object.assign(box.cloneNode(true), { className: "art-box small" }));
    details.classList.toggle("chosen", !!name);
    details.open = false;
    const next = !name || quiet ? null : pickers.slice(index + 1).find((p) => !p.classList.contains("chosen"));
    if (next) next.open = true;
    if (name && !quiet) (next || details).querySelector("summary").focus({ preventScroll: true });
  }
  on("change", (e) => { if (e.target.matches(".pick input[type=radio]")) showPick(e.target); });
  on("toggle", (e) => {
    const d = e.target;
    if (!d.matches || !d.matches("details[data-picker]") || !d.open) return;
    $$("details[data-picker][open]").forEach((o) => { if (o !== d) o.open = false; });
    const r = d.getBoundingClientRect();
    if (r.top < 0 || r.top > window.innerHeight * 0.4) d.scrollIntoView({ block: "start" });
  }, true);

  // -- a square tapped on a planet entered tile by tile: its picker opens under the planet, below
  //    the fold on a phone (the scan review at 390x844: its first row ~400 px under it); scroll just enough to show
  //    the picker's first row of tiles (there, after a scan, the ones the photo looked most like)
  on("htmx:afterSettle", (e) => {   // the editor comes back out of band, its picker open
    const editor = e.detail.elt, first = editor && editor.matches && editor.matches(".tile-editor") && editor.querySelector(".chooser .choice");
    if (!first) return;
    const below = first.getBoundingClientRect().bottom - window.innerHeight;
    if (below > 0) window.scrollBy(0, below + 12);
  });

  // -- the live score could not be fetched: say so; "See results" still posts the whole form
  const trouble = (e) => {
    const live = document.getElementById("live-score");
    if (!live || e.detail.target !== live) return;
    live.replaceChildren(Object.assign(document.createElement("p"), { className: "live-problem",
      textContent: e.detail.xhr && e.detail.xhr.status === 400 ? word("expired", "This page has expired. Tap \"See results\": everything you entered is kept.")
        : word("offline", "The live score could not be updated (no connection?). \"See results\" still works.") }));
  };
  ["htmx:responseError", "htmx:sendError"].forEach((t) => on(t, trouble));

  // -- copy the results text for the group chat
  on("click", (e) => {
    const b = e.target.closest && e.target.closest("[data-copy]");
    if (!b) return;
    const box = document.getElementById(b.dataset.copy), done = b.parentNode.querySelector(".copy-done");
    const say = (ok) => { done.textContent = ok ? word("copied", "Copied. Paste it in your group chat.") : word("copy_by_hand", "Select the text above and copy it."); };
    const fallback = () => { getSelection().selectAllChildren(box); say(document.execCommand("copy")); };
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(box.textContent).then(() => say(true), fallback);
    else fallback();
  });

  // -- Back from the results reopens the table as scored (/score?from=<id>), not a blank form;
  // a reload (pull-to-refresh) or Back onto the score page puts back what was typed (the fields
  // are autocomplete="off", so the browser keeps nothing): each change is noted in sessionStorage.
  const form = document.getElementById("score-form");
  const nav = (performance.getEntriesByType("navigation")[0] || {}).type;
  const draftKey = "mmap:draft:" + location.pathname + location.search;
  const saveDraft = () => {
    if (!form) return;
    const fields = $$("input[name]", form).filter((el) => el.name !== "csrf_token" && el.type !== "checkbox" && el.type !== "file" && (el.type !== "radio" || el.checked));
    store(draftKey, JSON.stringify(fields.map((el) => [el.name, el.value])));
  };
  function restoreDraft() {
    if (nav !== "reload" && nav !== "back_forward") return store(draftKey, null);  // a fresh start
    let fields;
    try { fields = JSON.parse(store(draftKey) || "[]"); } catch (err) { return; }
    const named = (name) => $$("[name]", form).filter((el) => el.name === name);
    if (!fields.length || !fields.every((f) => named(f[0]).length)) return;  // another form: leave it
    fields.forEach(([name, value]) => {
      const els = named(name), radio = els.find((x) => x.type === "radio" && x.value === value);
      if (radio && !radio.checked) { radio.checked = true; if (radio.matches(".pick input")) showPick(radio, true); }
      else if (!radio && els[0].value !== value) els[0].value = value;
    });
    form.querySelector("input[type=text]").dispatchEvent(new Event("change", { bubbles: true }));  // the live score follows
  }
  ["input", "change", "htmx:afterSettle"].forEach((t) => on(t, saveDraft));
  // Pages send no Referer (Referrer-Policy: no-referrer), so the score form notes itself as it is sent.
  on("submit", (e) => { if (e.target === form) store("mmap:scoring", location.href.split("#")[0]); });
  on("DOMContentLoaded", () => {
    const table = document.querySelector("[data-table]"), scored = JSON.parse(store("mmap:scored") || "null");
    const from = store("mmap:scoring");
    if (table && from && new URL(from).pathname === "/score") {
      store("mmap:scoring", null);
      store("mmap:scored", JSON.stringify({ id: table.dataset.table, from }));
    }
    if (form && nav === "back_forward" && scored && scored.from === location.href.split("#")[0]
        && location.search !== "?from=" + scored.id) return location.replace("/score?from=" + encodeURIComponent(scored.id));
    if (form) restoreDraft();
    $$("[data-copy]").forEach((b) => { b.hidden = false; });
  });
})();
