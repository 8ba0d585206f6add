// Widget 2: the two beats. The handle is fixed text in the page; the body
// is the @enqueue script as the engine holds it, read once at start.

import { byId, setText } from "./dom.js";
import { renderCode } from "./code.js";

/** @returns {import("./widget.js").Widget} */
export function mountBeats(root, ctx) {
  const source = byId("beats-source");
  const sha = byId("beats-sha");
  return {
    root,
    queue: null,
    start() {
      const script = ctx.scripts.get("enqueue");
      if (!script) {
        setText(source, "The engine has no @enqueue script.");
        return;
      }
      renderCode(source, script.source);
      setText(sha, `SHA1 ${script.sha.slice(0, 12)}…`);
      sha.title = script.sha;
    },
  };
}
