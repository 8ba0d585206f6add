// EchoMQ Playground: the course page's half of an embed. Include it once
// in a page that holds playground iframes:
//
//   <iframe src="/echomq/embed/stepper.html" title="Step the @enqueue moves" data-echomq></iframe>
//   <script src="/echomq/embed.js" defer></script>
//
// (with the playground's static/ directory copied to /echomq/ on the
// course's own site, which a strict Content-Security-Policy requires).
//
// It makes every iframe marked data-echomq full-width and borderless, and
// sets its height to the height its page reports (embed-height.js), so the
// widget is never cut off and never leaves a gap. It needs no inline script
// or style, so it works under a strict Content-Security-Policy.
(function () {
  "use strict";
  var frames = function () {
    return document.querySelectorAll("iframe[data-echomq]");
  };
  var style = function (frame) {
    frame.style.width = "100%";
    frame.style.border = "0";
    frame.style.display = "block";
  };
  window.addEventListener("message", function (event) {
    var data = event.data;
    if (!data || data.type !== "echomq:resize" || typeof data.height !== "number") return;
    if (!(data.height > 0 && data.height < 100000)) return;
    var all = frames();
    for (var i = 0; i < all.length; i++) {
      // Only the frame the message came from, so one widget cannot resize another.
      if (all[i].contentWindow === event.source) {
        style(all[i]);
        all[i].style.height = Math.ceil(data.height) + "px";
      }
    }
  });
  var ready = function () {
    var all = frames();
    for (var i = 0; i < all.length; i++) style(all[i]);
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
})();
