// One game, step by step: the arrow keys (and Home/End) walk through its events.
(function () {
  "use strict";
  var keys = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
  document.addEventListener("keydown", function (event) {
    var id = keys[event.key];
    var link = id && document.getElementById(id);
    if (link) { event.preventDefault(); window.location.replace(link.href); }
  });
})();
