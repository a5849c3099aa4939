// The live page: changes the game part when the store changes (only what changed, see web/patch.py).
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

  // What changed since the version the page shows (web/patch.py): ["h", id, html] replaces an element,
  // ["a", id, {name: value or null}] sets (or removes) its attributes. False if one is not there to change.
  function patch(ops) {
    for (var i = 0; i < ops.length; i++) {
      var op = ops[i];
      var el = document.getElementById(op[1]);
      if (!el || !live.contains(el)) { return false; }
      if (op[0] === "h") {
        el.outerHTML = op[2];  // built and escaped by the box
      } else {
        for (var name in op[2]) {
          if (op[2][name] === null) { el.removeAttribute(name); } else { el.setAttribute(name, op[2][name]); }
        }
      }
    }
    return true;
  }

  // One event of the stream: the whole part, or what changed since the version it names (the page's own, else
  // the whole is fetched once).
  function take(data) {
    if (data.patch === undefined) { show(data.v, data.html); return; }
    if (data.v === version) { return; }
    if (data.base === version && patch(data.patch)) {
      version = data.v;
      live.setAttribute("data-version", String(data.v));
      announce();
    } else {
      poll();
    }
  }

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
  source.addEventListener("live", function (event) { take(JSON.parse(event.data)); });
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
