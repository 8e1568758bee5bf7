/* A seat's own phone during a game: what only the browser can do.
   - a short vibration when the turn becomes this player's (where the phone has one);
   - the screen kept awake while the game goes on (Screen Wake Lock, where supported), asked
     again when the page comes back to the front, let go when the game is over.
   The title ("● Your turn") and the board come from the server (htmx swaps them in). */
(function () {
  "use strict";
  var wasMyTurn = null, lock = null;

  function board() { return document.getElementById("board"); }

  function keepAwake(on) {
    var root = document.documentElement;
    if (!on) {
      if (lock) { lock.release(); lock = null; }
      root.removeAttribute("data-awake");
      return;
    }
    if (lock || !("wakeLock" in navigator) || document.visibilityState !== "visible") return;
    navigator.wakeLock.request("screen").then(function (l) {
      lock = l;
      root.setAttribute("data-awake", "true");
      l.addEventListener("release", function () { lock = null; root.removeAttribute("data-awake"); });
    }, function () { /* refused (battery saver, no permission): the game works without it */ });
  }

  function look() {
    var b = board();
    if (!b) return;
    var mine = b.getAttribute("data-your-turn") === "true";
    if (mine && wasMyTurn === false && navigator.vibrate) navigator.vibrate(200);
    wasMyTurn = mine;
    keepAwake(b.getAttribute("data-finished") !== "true");
  }

  document.addEventListener("DOMContentLoaded", look);
  document.addEventListener("htmx:afterSettle", look);
  document.addEventListener("visibilitychange", function () { if (document.visibilityState === "visible") look(); });
})();
