/* Share the results picture through the phone's share sheet (Web Share API with files); where
   that is not offered, the "Download the picture" link beside it does the job. */
(function () {
  "use strict";
  var button = document.querySelector("[data-share-picture]");
  if (!button || !window.fetch || !window.File || !navigator.canShare) return;
  var probe = new File([""], "x.png", { type: "image/png" });
  if (!navigator.canShare({ files: [probe] })) return;
  button.hidden = false;
  button.addEventListener("click", function () {
    fetch(button.getAttribute("data-share-picture")).then(function (r) {
      if (!r.ok) throw new Error(r.status);
      return r.blob();
    }).then(function (blob) {
      var file = new File([blob], button.getAttribute("data-filename"), { type: "image/png" });
      return navigator.share({ files: [file], title: document.title });
    }).catch(function (err) {
      if (err && err.name === "AbortError") return;  // the player closed the share sheet
      var link = button.nextElementSibling;  // the download link
      if (link) link.click();
    });
  });
})();
