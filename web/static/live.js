// The live page: replaces the game part when the store changes.
// Server-sent events at /events; when they cannot be had (an old browser, too
// many open pages, a proxy that buffers), it polls /now.json instead.
(function () {
  "use strict";
  var live = document.getElementById("live");
  var conn = document.getElementById("conn");
  if (!live) { return; }
  var lang = live.getAttribute("data-lang");
  var version = Number(live.getAttribute("data-version"));
  var polling = null;
  var say = document.getElementById("say");

  // The one line a screen reader announces: the headline of the game part (who plays, who bust, who won).
  function announce() {
    var line = live.querySelector("[data-say]");
    var text = line ? line.textContent : "";
    if (say && say.textContent !== text) { say.textContent = text; }
  }

  function show(v, html) {
    if (v === version) { return; }
    version = v;
    live.setAttribute("data-version", String(v));
    live.innerHTML = html;  // built and escaped by the box
    announce();
  }
  announce();

  function poll() {
    var request = new XMLHttpRequest();
    request.open("GET", "/now.json?lang=" + encodeURIComponent(lang));
    request.onload = function () {
      if (request.status === 200) {
        var data = JSON.parse(request.responseText);
        show(data.v, data.html);
        conn.hidden = true;
      }
    };
    request.onerror = function () { conn.hidden = false; };
    request.send();
  }

  function startPolling() {
    if (polling === null) { polling = window.setInterval(poll, 1000); poll(); }
  }

  if (!window.EventSource) { startPolling(); return; }
  var source = new EventSource("/events?lang=" + encodeURIComponent(lang) + "&v=" + version);
  var failedAt = null;
  source.addEventListener("live", function (event) {
    var data = JSON.parse(event.data);
    show(data.v, data.html);
  });
  source.onopen = function () {
    conn.hidden = true;
    failedAt = null;
    if (polling !== null) { window.clearInterval(polling); polling = null; }
  };
  source.onerror = function () {
    conn.hidden = false;
    if (failedAt === null) { failedAt = Date.now(); }
    // closed for good (a 503: too many pages open), or down for a while: poll meanwhile
    if (source.readyState === EventSource.CLOSED || Date.now() - failedAt > 3000) { startPolling(); }
    if (source.readyState === EventSource.CLOSED) {
      window.setTimeout(function () { window.location.reload(); }, 60000);
    }
  };
})();
