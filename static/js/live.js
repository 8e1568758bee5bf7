/* The board's live updates: it asks "anything new since version N?" and waits for the answer (the
   server holds the request until someone moves, up to 25 s). A new board replaces this one and
   asks again by itself (hx-trigger "load"); after "nothing new" (204) or a failed request, ask
   again here: at once after a long wait, after 2 s when the answer came quickly (a server that
   does not hold requests, or no connection), so a phone never asks more than every 2 s. */
(function () {
  "use strict";
  var QUICK_MS = 1500, PAUSE_MS = 2000;
  function isBoard(elt) { return elt && elt.id === "board" && elt.hasAttribute("hx-get"); }
  document.addEventListener("htmx:beforeRequest", function (e) {
    if (isBoard(e.detail.elt)) e.detail.elt.liveSince = Date.now();
  });
  document.addEventListener("htmx:afterRequest", function (e) {
    var board = e.detail.elt;
    if (!isBoard(board)) return;
    var swapped = e.detail.successful && e.detail.xhr && e.detail.xhr.status === 200;
    if (swapped && !board.isConnected) return;  // the new board asks again itself
    var quick = Date.now() - (board.liveSince || 0) < QUICK_MS;
    setTimeout(function () {
      if (board.isConnected && window.htmx) window.htmx.trigger(board, "live-again");
    }, quick || !e.detail.successful ? PAUSE_MS : 0);
  });
  /* A board that came in place carries no CSRF token in its forms (it is the same drawing for
     every phone that sees the same: scorer/web/shared_boards.py); htmx sends the page's token as
     a header. A form posted without htmx (the rematch) gets it here, from the same header. */
  document.addEventListener("submit", function (e) {
    var field = e.target.querySelector && e.target.querySelector('input[name="csrf_token"]');
    if (!field || field.value) return;
    try {
      field.value = JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (err) { /* no header: the server answers that the page expired */ }
  }, true);
})();
