// Scan page: send the photo as soon as it is chosen, with a progress bar while it uploads.
// Without JavaScript the form posts as usual with its button.
(() => {
  // Sentences in the page's language (base.html's #js-words); English if they are missing.
  const word = (key, english) => { try { return JSON.parse(document.getElementById("js-words").textContent)[key] || english; } catch (err) { return english; } };
  const form = document.getElementById("scan-form");
  if (!form) return;
  const [input, bar, status, button] = ["photo", "scan-progress", "scan-status", "scan-submit"].map((id) => document.getElementById(id));
  function send() {
    if (!input.files || !input.files.length) { status.textContent = word("choose_photo", "Choose a photo first."); return; }
    const xhr = new XMLHttpRequest();
    xhr.open("POST", form.action);
    bar.hidden = false; bar.value = 0; button.disabled = true;
    status.textContent = word("uploading", "Uploading the photo…");
    xhr.upload.onprogress = (e) => { if (e.lengthComputable) bar.value = Math.round(100 * e.loaded / e.total); };
    xhr.upload.onload = () => { bar.removeAttribute("value"); status.textContent = word("reading", "Reading the tiles…"); };
    xhr.onload = () => {
      // Read: the review has its own address (reload and Back work). Not read: this page again, with why.
      if (xhr.status === 200 && xhr.responseURL && xhr.responseURL !== form.action) return location.assign(xhr.responseURL);
      document.open(); document.write(xhr.responseText); document.close();
    };
    xhr.onerror = () => {
      bar.hidden = true; button.disabled = false;
      status.textContent = word("upload_failed", "The upload did not get through. Check the connection and try again.");
    };
    xhr.send(new FormData(form));
  }
  input.addEventListener("change", send);
  form.addEventListener("submit", (e) => { e.preventDefault(); send(); });
})();
