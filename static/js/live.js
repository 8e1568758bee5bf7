/* The board's live updates. Where the server holds requests (python -m scorer serve), the page
   keeps one event stream open (htmx's sse extension, sse-connect) and each new board arrives on it
   and replaces #board; a board no newer than the one shown (this phone's own move, already
   answered by its post) is dropped here. Elsewhere the board asks "anything new since version
   N?" itself (hx-get) and a new board replaces it and asks again (hx-trigger "load"); after
   "nothing new" (204) or a failed request, ask again here: at once after a long wait, after 2 s
   when the answer came quickly, so a phone never asks more than every 2 s. */
(function () {
  "use strict";
  document.addEventListener("htmx:sseBeforeMessage", function (e) {
    var shown = document.getElementById("board");
    var version = parseInt(e.detail.lastEventId, 10);
    if (shown && version <= parseInt(shown.getAttribute("data-version"), 10)) e.preventDefault();
  });
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
