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
//
// It also gives an embed's "Copy link" a link to this course page: the
// address with #echomq.<frame>.<the embed's permalink>, where <frame> is
// the iframe's id or its place among the embeds (1, 2, ...). Opening that
// address hands the permalink to that frame as soon as it first reports
// its height (it opens the link when its engine is ready), so the reader
// lands on the course page with the widget as it was. Messages count only
// from an embed frame at its own origin, and answers go to that origin
// only.
(function () {
  "use strict";
  var PREFIX = "#echomq.";
  var frames = function () {
    return document.querySelectorAll("iframe[data-echomq]");
  };
  var style = function (frame) {
    frame.style.width = "100%";
    frame.style.border = "0";
    frame.style.display = "block";
  };
  var originOf = function (frame) {
    try {
      return new URL(frame.getAttribute("src") || "", document.baseURI).origin;
    } catch (e) {
      return "";
    }
  };
  /** The frame's name in a course link: its id when it has a plain one, else its place. */
  var keyOf = function (frame, index) {
    return /^[A-Za-z0-9_-]{1,64}$/.test(frame.id) ? frame.id : String(index + 1);
  };
  /** The embed frame a message came from, if any. */
  var senderOf = function (event) {
    var all = frames();
    for (var i = 0; i < all.length; i++) {
      if (all[i].contentWindow === event.source) return { frame: all[i], index: i, own: event.origin === originOf(all[i]) };
    }
    return null;
  };
  window.addEventListener("message", function (event) {
    var data = event.data;
    if (!data || typeof data.type !== "string") return;
    var from = senderOf(event);
    if (!from) return;
    if (data.type === "echomq:resize") {
      // A height is harmless, so any embed frame may send one (a sandboxed
      // frame's origin is "null"); only the frame it came from is resized.
      if (typeof data.height !== "number" || !(data.height > 0 && data.height < 100000)) return;
      style(from.frame);
      from.frame.style.height = Math.ceil(data.height) + "px";
      // Tells the embed that this page can make course links (see above),
      // and hands it the permalink the address names for it, once.
      if (!from.own) return;
      event.source.postMessage({ type: "echomq:course" }, event.origin);
      if (opening && opening.key === keyOf(from.frame, from.index)) {
        event.source.postMessage({ type: "echomq:open", fragment: opening.fragment }, event.origin);
        opening = null;
        from.frame.scrollIntoView({ block: "start" });
      }
      return;
    }
    if (!from.own) return;
    if (data.type === "echomq:link") {
      if (typeof data.fragment !== "string" || data.fragment.charAt(0) !== "#" || data.fragment.length > 300000) return;
      var url = location.href.split("#")[0] + PREFIX + keyOf(from.frame, from.index) + "." + data.fragment.slice(1);
      event.source.postMessage({ type: "echomq:course-link", id: data.id, url: url }, event.origin);
    }
  });
  /** The course link in the address, {key, fragment}, until its frame has it. */
  var opening = (function () {
    var hash = location.hash;
    if (hash.indexOf(PREFIX) !== 0) return null;
    var rest = hash.slice(PREFIX.length);
    var dot = rest.indexOf(".");
    if (dot <= 0) return null;
    return { key: rest.slice(0, dot), fragment: "#" + rest.slice(dot + 1) };
  })();
  var ready = function () {
    var all = frames();
    for (var i = 0; i < all.length; i++) style(all[i]);
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
})();
