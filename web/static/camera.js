// Setting the camera up on a paired phone (web/phone/camera.py): wait for the box's new photo, or place the
// columns by hand: the bottom then the top space of each column, 2 to 12, tapped on the photo and sent in the
// photo's own pixels (the photo is shown scaled; the drawing over it is in its pixels, so a tap is mapped back
// through the drawing's own transform).
(function () {
  "use strict";
  var root = document.getElementById("camera");
  if (!root) { return; }

  // After a request the box took: ask for the spaces' head each second until they are written anew.
  var wait = root.getAttribute("data-wait");
  if (wait !== null) {
    var since = Date.now();
    var look = function () {
      var request = new XMLHttpRequest();
      request.open("HEAD", "/camera/grid.json");
      request.setRequestHeader("Cache-Control", "no-cache");
      request.onload = function () {
        var tag = request.status === 200 ? (request.getResponseHeader("ETag") || "") : "";
        if (request.status === 200 && tag !== wait) { window.location.replace("/camera"); return; }
        if (Date.now() - since > 60000) { document.getElementById("late").hidden = false; }
        window.setTimeout(look, 1000);
      };
      request.onerror = function () { window.setTimeout(look, 2000); };
      request.send();
    };
    window.setTimeout(look, 500);
    return;
  }

  var svg = document.getElementById("overlay");
  var start = document.getElementById("by-hand");
  if (!svg || !start) { return; }
  var NS = "http://www.w3.org/2000/svg";
  var width = Number(root.getAttribute("data-w")), height = Number(root.getAttribute("data-h"));
  var r = Math.max(width, height) / 80;
  var panel = document.getElementById("taps"), say = document.getElementById("tap-say");
  var drawn = document.getElementById("tapped"), fit = document.getElementById("fit");
  var ends = document.getElementById("ends"), send = document.getElementById("send-ends");
  var taps = [];  // [x, y] in the photo's pixels: column 2's bottom, its top, column 3's bottom, ...
  var COLUMNS = 11;

  function said(key, column) {
    return (root.getAttribute("data-" + key) || "").split("{column}").join(String(column));
  }

  function add(tag, attrs) {
    var el = document.createElementNS(NS, tag);
    for (var name in attrs) { el.setAttribute(name, String(attrs[name])); }
    drawn.appendChild(el);
    return el;
  }

  function show() {
    while (drawn.firstChild) { drawn.removeChild(drawn.firstChild); }
    for (var i = 0; i < taps.length; i++) {
      var column = 2 + Math.floor(i / 2);
      if (i % 2 === 1) {
        add("line", {x1: taps[i - 1][0], y1: taps[i - 1][1], x2: taps[i][0], y2: taps[i][1], "stroke-width": r / 3});
      }
      add("circle", {cx: taps[i][0], cy: taps[i][1], r: r, "stroke-width": r / 3});
      add("text", {x: taps[i][0] + 1.3 * r, y: taps[i][1] - 1.3 * r, "font-size": 2.5 * r, "stroke-width": r / 4})
        .textContent = String(column);
    }
    var done = taps.length === 2 * COLUMNS;
    say.textContent = done ? said("done", 0) :
      said(taps.length % 2 === 0 ? "bottom" : "top", 2 + Math.floor(taps.length / 2));
    var out = {};
    for (var c = 0; c < COLUMNS && 2 * c + 1 < taps.length; c++) { out[String(c + 2)] = [taps[2 * c], taps[2 * c + 1]]; }
    ends.value = done ? JSON.stringify(out) : "";
    send.disabled = !done;
  }

  // A tap (a click, from a finger or a mouse) on the drawing, in the photo's pixels, to a tenth of one.
  svg.addEventListener("click", function (event) {
    if (panel.hidden || taps.length >= 2 * COLUMNS) { return; }
    var point = svg.createSVGPoint();
    point.x = event.clientX;
    point.y = event.clientY;
    var at = point.matrixTransform(svg.getScreenCTM().inverse());
    var x = Math.min(Math.max(at.x, 0), width), y = Math.min(Math.max(at.y, 0), height);
    taps.push([Math.round(x * 10) / 10, Math.round(y * 10) / 10]);
    show();
  });

  document.getElementById("undo").addEventListener("click", function () { taps.pop(); show(); });

  start.hidden = false;
  start.addEventListener("click", function () {
    panel.hidden = false;
    document.getElementById("choices").hidden = true;
    document.getElementById("fit-said").hidden = true;  // about the rings, hidden now
    if (fit) { fit.setAttribute("visibility", "hidden"); }
    svg.classList.add("tapping");
    show();
    say.scrollIntoView({block: "nearest"});
  });
})();
