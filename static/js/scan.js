// Scan page: send the photo as soon as it is chosen, with a progress bar while it uploads.
// Without JavaScript the form posts as usual with its button.
(function () {
  var form = document.getElementById("scan-form");
  if (!form || !window.XMLHttpRequest || !window.FormData) return;
  var input = document.getElementById("photo");
  var bar = document.getElementById("scan-progress");
  var status = document.getElementById("scan-status");
  var button = document.getElementById("scan-submit");

  function send() {
    if (!input.files || !input.files.length) { status.textContent = "Choose a photo first."; return; }
    var xhr = new XMLHttpRequest();
    xhr.open("POST", form.action);
    bar.hidden = false; bar.value = 0; button.disabled = true;
    status.textContent = "Uploading the photo…";
    xhr.upload.onprogress = function (e) {
      if (e.lengthComputable) bar.value = Math.round(100 * e.loaded / e.total);
    };
    xhr.upload.onload = function () { bar.removeAttribute("value"); status.textContent = "Reading the tiles…"; };
    xhr.onload = function () {
      // The answer is a whole page (the review, or this page with a message): show it.
      document.open(); document.write(xhr.responseText); document.close();
      if (window.history && xhr.status === 200) history.replaceState(null, "", form.action);
    };
    xhr.onerror = function () {
      bar.hidden = true; button.disabled = false;
      status.textContent = "The upload did not get through. Check the connection and try again.";
    };
    xhr.send(new FormData(form));
  }

  input.addEventListener("change", send);
  form.addEventListener("submit", function (e) { e.preventDefault(); send(); });
})();
