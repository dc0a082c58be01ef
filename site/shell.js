// llmcalc page shell, shared by index.html and embed.html (embed.html sets data-llmcalc-embedded on
// <html>). Sets up `Module` for llmcalc_app.js (Emscripten, loaded after this script), the hidden
// file input the app's "open file" uses, and drag-and-drop of JSON files onto the page.
// Exported by the wasm module (web/main.cpp, docs/web.md):
//   _llmcalc_load_file(name, text)   UTF-8 C strings; the app reads the file in its next frame
//   _llmcalc_widget_rect(id)         pointer to 4 floats (x, y, w, h; canvas CSS pixels) or 0
//   _llmcalc_set_embedded(flag)      compact mode
//   _llmcalc_paste(text)             text from a paste event, for the field being edited
(function () {
  "use strict";

  var MAX_FILE_BYTES = 16 * 1024 * 1024;
  var canvas = document.getElementById("canvas");
  var statusEl = document.getElementById("llmcalc-status");
  var fileInput = document.getElementById("llmcalc-file");
  var embedded = document.documentElement.hasAttribute("data-llmcalc-embedded");
  var runtimeReady = false;
  var queued = [];  // files that arrived before the runtime was up

  function showStatus(text) {
    if (!statusEl) return;
    statusEl.textContent = text;
    statusEl.hidden = false;
  }

  // A WebGL context loss cannot be recovered by this app: tell the user instead of showing black.
  canvas.addEventListener("webglcontextlost", function (e) {
    e.preventDefault();
    showStatus("The graphics context was lost. Reload the page to continue.");
  }, false);

  var Module = (window.Module = {
    canvas: canvas,
    print: function (text) { console.log(text); },
    printErr: function (text) { console.error(text); },
    onAbort: function (what) { showStatus("llmcalc stopped: " + what); },
    // Runs before main(): compact mode is known when the app starts.
    onRuntimeInitialized: function () {
      runtimeReady = true;
      if (embedded) Module._llmcalc_set_embedded(1);
      var files = queued;
      queued = [];
      files.forEach(function (f) { loadFile(f[0], f[1]); });
      loadBundledProfiles();
    },
  });

  function toHeap(s) {
    var n = Module.lengthBytesUTF8(s) + 1;
    var p = Module._malloc(n);
    Module.stringToUTF8(s, p, n);
    return p;
  }

  // Hand a file's text to the app (heap-allocated: files can be larger than the wasm stack).
  function loadFile(name, text) {
    if (!runtimeReady) {
      queued.push([name, text]);
      return;
    }
    var pn = toHeap(name);
    var pt = toHeap(text);
    try {
      Module._llmcalc_load_file(pn, pt);
    } finally {
      Module._free(pn);
      Module._free(pt);
    }
  }
  window.llmcalcLoadFile = loadFile;  // for tests and the console

  // Profiles shipped with the site (profiles/index.json): offered in the Hardware screen, in the
  // index's order (fetched together, handed over once all arrived).
  function loadBundledProfiles() {
    fetch("profiles/index.json").then(function (r) { return r.ok ? r.json() : []; }).then(function (names) {
      return Promise.all(names.map(function (name) {
        return fetch("profiles/" + name).then(function (r) { return r.text(); }).then(function (text) { return [name, text]; });
      }));
    }).then(function (files) {
      files.forEach(function (f) {
        var pn = toHeap("bundled/" + f[0]), pt = toHeap(f[1]);
        try { Module._llmcalc_add_bundled_profile(pn, pt); } finally { Module._free(pn); Module._free(pt); }
      });
    }).catch(function (e) { console.warn("llmcalc: no bundled profiles: " + e); });
  }

  // Paste from the system clipboard. A page may read it only in a paste event, which the browser
  // fires for Ctrl+V / Cmd+V unless the key's default is prevented, and SDL prevents it for every
  // Ctrl chord: so those keys stop here (before SDL's window listener) and the text arrives
  // through the paste event instead.
  window.addEventListener("keydown", function (e) {
    if ((e.ctrlKey || e.metaKey) && !e.altKey && (e.key === "v" || e.key === "V")) e.stopImmediatePropagation();
  }, true);
  window.addEventListener("paste", function (e) {
    var text = e.clipboardData && e.clipboardData.getData("text/plain");
    if (!text || !runtimeReady) return;
    e.preventDefault();
    var p = toHeap(text);
    try { Module._llmcalc_paste(p); } finally { Module._free(p); }
  });

  function readFile(file) {
    if (!file) return;
    if (file.size > MAX_FILE_BYTES) {
      console.warn("llmcalc: " + file.name + " is larger than 16 MiB; ignored");
      return;
    }
    file.text().then(
      function (text) { loadFile(file.name, text); },
      function (err) { console.warn("llmcalc: cannot read " + file.name + ": " + err); });
  }

  if (fileInput) {
    fileInput.addEventListener("change", function () {
      readFile(fileInput.files && fileInput.files[0]);
      fileInput.value = "";  // picking the same file again fires "change" again
    });
  }

  // Drag and drop anywhere on the page.
  function hasFiles(e) {
    var types = e.dataTransfer && e.dataTransfer.types;
    return !!types && Array.prototype.indexOf.call(types, "Files") >= 0;
  }
  var dragDepth = 0;
  window.addEventListener("dragenter", function (e) {
    if (!hasFiles(e)) return;
    e.preventDefault();
    dragDepth++;
    document.body.classList.add("llmcalc-dragging");
  });
  window.addEventListener("dragover", function (e) {
    if (!hasFiles(e)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = "copy";
  });
  window.addEventListener("dragleave", function () {
    dragDepth = Math.max(0, dragDepth - 1);
    if (dragDepth === 0) document.body.classList.remove("llmcalc-dragging");
  });
  window.addEventListener("drop", function (e) {
    if (!hasFiles(e)) return;
    e.preventDefault();
    dragDepth = 0;
    document.body.classList.remove("llmcalc-dragging");
    readFile(e.dataTransfer.files[0]);
  });
})();
