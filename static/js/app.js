/* Small enhancements for the scoring pages; everything works without them (plain form posts).
   - steppers change their number at once (the live score then follows via htmx)
   - character pickers show the pick and move on to the next empty one
   - grid cells show the chosen tile, and tiles used at the table are greyed out
   - live-score errors are placed beside their fields
   - results: tap a character to light up what it counted; copy the results text */
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  function all(sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); }

  // -- steppers ------------------------------------------------------------------------------
  document.addEventListener("click", function (e) {
    var b = e.target.closest && e.target.closest("button[data-step]");
    if (!b) return;
    var input = document.getElementById(b.getAttribute("data-for"));
    if (!input) return;
    e.preventDefault();
    var v = parseInt(input.value, 10);
    if (isNaN(v)) v = 0;
    input.value = String(Math.max(0, v + parseInt(b.getAttribute("data-step"), 10)));
    input.dispatchEvent(new Event("change", { bubbles: true }));
  });

  // Enter in a box of the score form: done typing (no page reload), the live score follows.
  document.addEventListener("keydown", function (e) {
    var t = e.target;
    if (e.key !== "Enter" || !t.matches || !t.matches("#score-form input[type=text]")) return;
    if (!window.htmx) return;  // without htmx, Enter posts the form: the server scores it
    e.preventDefault();
    t.dispatchEvent(new Event("change", { bubbles: true }));
    t.blur();
  });

  // -- character pickers ---------------------------------------------------------------------
  function showPick(radio, quiet) {
    var details = radio.closest("details");
    var label = radio.closest(".pick");
    var summary = details.querySelector("summary");
    var name = label.getAttribute("data-name") || "";
    var box = summary.querySelector(".art-box");
    summary.querySelector(".picker-chosen").textContent = name || "Choose…";
    var pickers = all("details[data-picker]", details.parentNode);
    var index = pickers.indexOf(details);
    box.textContent = "";
    var ini = document.createElement("span");
    ini.className = "initials";
    ini.textContent = label.getAttribute("data-initials") || String(index + 1);
    box.appendChild(ini);
    if (label.getAttribute("data-art")) {
      var img = document.createElement("img");
      img.alt = "";
      img.src = label.getAttribute("data-art");
      box.appendChild(img);
    }
    details.classList.toggle("chosen", !!name);
    details.open = false;
    if (!name || quiet) return;
    for (var j = index + 1; j < pickers.length; j++) {
      if (!pickers[j].classList.contains("chosen")) {
        pickers[j].open = true;
        pickers[j].querySelector("summary").focus({ preventScroll: true });
        return;
      }
    }
    summary.focus({ preventScroll: true });
  }

  document.addEventListener("toggle", function (e) {
    var d = e.target;
    if (d.matches && d.matches("details[data-picker]") && d.open) {
      all("details[data-picker][open]").forEach(function (o) { if (o !== d) o.open = false; });
      // bring the list up from under the score bar (scroll-padding keeps it a little way down)
      var r = d.getBoundingClientRect();
      if (r.top < 0 || r.top > window.innerHeight * 0.4) d.scrollIntoView({ block: "start" });
    }
  }, true);

  // -- grid editor ---------------------------------------------------------------------------
  function showCell(select) {
    var cell = select.closest(".gcell");
    var face = cell.querySelector(".gcell-face");
    var img = face.querySelector("img");
    var id = face.querySelector(".gcell-id");
    var v = select.value;
    if (v) {
      if (!img) { img = document.createElement("img"); img.alt = ""; face.insertBefore(img, id); }
      img.src = "/art/" + encodeURIComponent(v) + ".png";
    } else if (img) {
      img.remove();
    }
    id.textContent = v === "back" ? "face down" : (v || cell.getAttribute("data-stack-name"));
    cell.classList.toggle("filled", !!v);
    cell.classList.toggle("back", v === "back");
    var opt = select.options[select.selectedIndex];
    cell.title = opt && v ? opt.textContent : cell.getAttribute("data-stack-name");
  }

  function inGridMode(select) {
    var player = select.closest(".player");
    if (!player) return true;
    var checked = player.querySelector(".mode input:checked");
    return !checked || checked.value === "grid";
  }

  function refreshUsed() {
    var selects = all(".gcell select");
    var used = {};
    selects.forEach(function (s) {
      if (s.value && s.value !== "back" && inGridMode(s)) used[s.value] = true;
    });
    selects.forEach(function (s) {
      all("option", s).forEach(function (o) {
        if (!o.value || o.value === "back") return;
        var off = !!used[o.value] && o.value !== s.value;
        if (o.disabled !== off) {
          o.disabled = off;
          var base = o.textContent.replace(/ \(used\)$/, "");
          o.textContent = off ? base + " (used)" : base;
        }
      });
    });
  }

  document.addEventListener("change", function (e) {
    var t = e.target;
    if (!t.matches) return;
    if (t.matches(".pick input[type=radio]")) showPick(t);
    else if (t.matches(".gcell select")) { showCell(t); refreshUsed(); }
    else if (t.matches(".mode input")) {
      var player = t.closest(".player");
      if (player) player.setAttribute("data-mode", t.value === "grid" ? "grid" : "counts");
      refreshUsed();
    }
  });

  // -- live score errors, beside their fields --------------------------------------------------
  document.addEventListener("htmx:afterSwap", function (e) {
    var live = e.detail && e.detail.target;
    if (!live || live.id !== "live-score") return;
    all(".field-error").forEach(function (p) { p.hidden = true; p.textContent = ""; });
    all("#score-form [aria-invalid=true]").forEach(function (x) { x.removeAttribute("aria-invalid"); });
    all(".stepper-row.invalid, .gcell.invalid").forEach(function (r) { r.classList.remove("invalid"); });
    all(".live-errors li", live).forEach(function (li) {
      var slot = document.getElementById(li.getAttribute("data-slot") + "-error");
      if (slot) { slot.textContent = li.textContent; slot.hidden = false; }
      var field = document.getElementById(li.getAttribute("data-for"));
      if (field) {
        if (field.matches("input, select")) field.setAttribute("aria-invalid", "true");
        var row = field.closest(".stepper-row, .gcell");
        if (row) row.classList.add("invalid");
      }
    });
  });

  // The live score could not be fetched (server refused it, or no network): say so in the bar;
  // "See results" still posts the whole form.
  function liveTrouble(e) {
    var live = document.getElementById("live-score");
    if (!live || !e.detail || !e.detail.target || e.detail.target.id !== "live-score") return;
    var status = e.detail.xhr ? e.detail.xhr.status : 0;
    live.innerHTML = "";
    var p = document.createElement("p");
    p.className = "live-problem";
    p.textContent = status === 400
      ? "This page has expired. Tap \"See results\": everything you entered is kept."
      : "The live score could not be updated (no connection?). \"See results\" still works.";
    live.appendChild(p);
  }
  document.addEventListener("htmx:responseError", liveTrouble);
  document.addEventListener("htmx:sendError", liveTrouble);

  // -- results: what a character counted ------------------------------------------------------
  document.addEventListener("click", function (e) {
    var a = e.target.closest && e.target.closest("a.char-score[data-planet]");
    if (!a) return;
    var planet = document.getElementById(a.getAttribute("data-planet"));
    if (!planet) return;
    e.preventDefault();
    var on = a.getAttribute("aria-current") !== "true";
    all("a.char-score[data-planet='" + a.getAttribute("data-planet") + "']").forEach(function (x) {
      x.setAttribute("aria-current", "false");
      x.classList.remove("on");
    });
    var lit = on ? (a.getAttribute("data-positions") || "").split(" ") : [];
    var self = on ? a.getAttribute("data-self") : null;
    all(".pcell", planet).forEach(function (c) {
      c.classList.toggle("lit", lit.indexOf(c.getAttribute("data-pos")) >= 0);
      c.classList.toggle("self", c.getAttribute("data-pos") === self);
    });
    if (on) { a.setAttribute("aria-current", "true"); a.classList.add("on"); }
  });

  // -- copy results ---------------------------------------------------------------------------
  function copied(button, ok) {
    var status = button.parentNode.querySelector(".copy-done");
    if (status) status.textContent = ok ? "Copied. Paste it in your group chat." : "Select the text above and copy it.";
  }
  document.addEventListener("click", function (e) {
    var b = e.target.closest && e.target.closest("[data-copy]");
    if (!b) return;
    var box = document.getElementById(b.getAttribute("data-copy"));
    if (!box) return;
    var text = box.value !== undefined ? box.value : box.textContent;
    var fallback = function () {
      box.focus();
      if (box.select) box.select();
      else {
        var range = document.createRange();
        range.selectNodeContents(box);
        var sel = window.getSelection();
        sel.removeAllRanges();
        sel.addRange(range);
      }
      var ok = false;
      try { ok = document.execCommand("copy"); } catch (err) { ok = false; }
      copied(b, ok);
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(function () { copied(b, true); }, fallback);
    } else {
      fallback();
    }
  });

  // -- Back from the results: the table as it was scored, not an empty form -------------------
  // The score page is a fresh GET, so Back from the results used to show blank players. The
  // results page notes which table this tab just scored, and from which page; going Back to that
  // page reopens the table for correction (/score?from=<id>) in place of the blank form.
  var SCORED = "mmap:scored";
  function navigationType() {
    var nav = window.performance && performance.getEntriesByType && performance.getEntriesByType("navigation")[0];
    if (nav) return nav.type;
    return window.performance && performance.navigation && performance.navigation.type === 2 ? "back_forward" : "";
  }
  // Pages send no Referer (Referrer-Policy: no-referrer), so the score form notes itself as it is sent.
  var SCORING = "mmap:scoring";
  document.addEventListener("submit", function (e) {
    if (e.target.id !== "score-form") return;
    try { sessionStorage.setItem(SCORING, location.href.split("#")[0]); } catch (err) { /* no storage */ }
  });
  function rememberScored() {
    var table = document.querySelector("[data-table]");
    if (!table) return;
    try {
      var from = sessionStorage.getItem(SCORING);
      sessionStorage.removeItem(SCORING);
      if (!from || new URL(from).pathname !== "/score") return;
      sessionStorage.setItem(SCORED, JSON.stringify({ id: table.getAttribute("data-table"), from: from }));
    } catch (err) { /* no storage (private mode): Back shows the form as the browser keeps it */ }
  }
  function reopenScored() {
    if (!document.getElementById("score-form") || navigationType() !== "back_forward") return false;
    try {
      var scored = JSON.parse(sessionStorage.getItem(SCORED) || "null");
      if (!scored || !scored.id || scored.from !== location.href.split("#")[0]) return false;
      var url = "/score?from=" + encodeURIComponent(scored.id);
      if (location.pathname + location.search === url) return false;
      location.replace(url);
      return true;
    } catch (err) { return false; }
  }

  // -- a draft of the score form, kept through a reload ---------------------------------------
  // A pull-to-refresh (easy to do by accident on a phone) or a reload used to empty the form: the
  // fields say autocomplete="off", so the browser keeps nothing. Each change is noted in this
  // tab's sessionStorage; a reload (or Back) onto the same form puts it all back.
  function draftKey() { return "mmap:draft:" + location.pathname + location.search; }
  function saveDraft() {
    var form = document.getElementById("score-form");
    if (!form) return;
    var fields = [];
    all("input[name], select[name]", form).forEach(function (el) {
      if (el.name === "csrf_token" || el.type === "submit" || el.type === "hidden") return;
      if (el.type !== "radio" || el.checked) fields.push([el.name, el.value]);
    });
    try { sessionStorage.setItem(draftKey(), JSON.stringify(fields)); } catch (err) { /* no storage */ }
  }
  function restoreDraft() {
    var form = document.getElementById("score-form");
    var type = navigationType();
    if (!form) return;
    if (type !== "reload" && type !== "back_forward") {  // a fresh start: an old draft must not come back
      try { sessionStorage.removeItem(draftKey()); } catch (err) { /* no storage */ }
      return;
    }
    var fields;
    try { fields = JSON.parse(sessionStorage.getItem(draftKey()) || "null"); } catch (err) { return; }
    if (!fields || !fields.length) return;
    var byName = function (name) { return all("[name]", form).filter(function (el) { return el.name === name; }); };
    if (!fields.every(function (f) { return byName(f[0]).length; })) return;  // another form: leave it
    var changed = false;
    fields.forEach(function (f) {
      var els = byName(f[0]);
      if (els[0].type === "radio") {
        var r = els.filter(function (x) { return x.value === f[1]; })[0];
        if (!r || r.checked) return;
        r.checked = changed = true;
        if (r.matches(".pick input")) showPick(r, true);
        var player = r.closest(".player");
        if (r.closest(".mode") && player) player.setAttribute("data-mode", r.value === "grid" ? "grid" : "counts");
      } else if (els[0].value !== f[1]) {
        els[0].value = f[1];
        changed = true;
        if (els[0].matches(".gcell select")) showCell(els[0]);
      }
    });
    if (!changed) return;
    refreshUsed();
    var first = form.querySelector("input[type=text]");
    if (first) first.dispatchEvent(new Event("change", { bubbles: true }));  // the live score follows
  }
  document.addEventListener("input", function (e) { if (e.target.closest && e.target.closest("#score-form")) saveDraft(); });
  document.addEventListener("change", function (e) { if (e.target.closest && e.target.closest("#score-form")) saveDraft(); });

  document.addEventListener("DOMContentLoaded", function () {
    if (reopenScored()) return;
    restoreDraft();
    rememberScored();
    all("[data-copy]").forEach(function (b) { b.hidden = false; });
    refreshUsed();
  });
})();
