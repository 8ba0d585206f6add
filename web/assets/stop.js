// The Stop control: a learner's way to end their own script while it runs,
// the editor's Run or Step and a console line alike.
//
// The engine runs in a worker, one call at a time, and a running call
// hears nothing until it returns: no message, no flag the page could set
// (a SharedArrayBuffer would need the page to be cross-origin isolated,
// which an embed in someone's course is not). So Stop terminates the
// worker (engine.js's stop), which is answered at once, and starts a fresh
// one on the module the first compiled. The fresh engine's keyspace is
// empty; the page then runs again every call it made before the stopped
// one (its journal, the calls a permalink holds, replayed as a link's
// are), so the keyspace is exactly what it was just before the stopped
// run began: nothing the stopped run wrote is kept. That is what STOPPED
// tells the learner. (A script the engine's own budget stops is another
// matter: that one keeps its writes, as Redis does; and the replay runs it
// again to the same instruction, for as long as it took the first time.)
//
// Embeds of one course page that share a SharedWorker cannot stop it (no
// page can terminate a SharedWorker, and a restart would empty the
// keyspaces of the other embeds), so there the control is never shown and
// a runaway ends at its work budget.

import { h } from "./dom.js";

/** What a learner reads after pressing Stop, defined once (editor, console, tests). */
export const STOPPED =
  "Stopped. The playground ended the script, restarted its engine and ran your earlier commands again, so the keyspace is as it was just before this run: nothing the run wrote was kept.";

/** What the Run text says of the work budget and of Stop, while a script runs. */
export function runningText(canStop) {
  const budget = "a script nobody stops ends once it has done its work budget, about what a real Redis does in 5 s";
  return canStop ? `Running… Stop ends it now; ${budget}.` : `Running… This engine is shared with the other widgets of the course page, so it has no Stop: ${budget}.`;
}

/**
 * How long a call waits before Stop (and the console's running note)
 * shows: most calls are answered sooner, and a button that flashes on
 * every Run would only distract.
 */
const SHOW_AFTER_MS = 300;

/**
 * A Stop button after `after`, hidden until a call has waited
 * SHOW_AFTER_MS (arm). Pressing it asks the page to stop (ctx.stop); a page
 * whose engine cannot stop never shows it. onShow runs when it would show
 * (the console writes its running note then), Stop or not.
 */
export function stopButton(ctx, after, id) {
  const button = h("button", { type: "button", class: "stop", id, text: "Stop" });
  button.hidden = true;
  button.dataset.testid = id;
  after.after(button);
  button.addEventListener("click", () => {
    button.disabled = true;
    ctx.stop();
  });
  let timer = 0;
  return {
    /** Shows Stop once a call that runs a learner's script has waited a moment. */
    arm(onShow) {
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (onShow) onShow(ctx.canStop());
        if (!ctx.canStop()) return;
        button.hidden = false;
        button.disabled = false;
      }, SHOW_AFTER_MS);
    },
    disarm() {
      clearTimeout(timer);
      button.hidden = true;
    },
  };
}
