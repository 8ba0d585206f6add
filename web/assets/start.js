// The masthead's "Step the first move of @enqueue": the first screen's
// invitation to the lesson's first control. Without the page's script it
// is a link to the stepper; with it, it brings the stepper's Step to the
// top of the screen, with the focus on it, and takes the first step (the
// recorded run steps before the engine is ready; when Step cannot step
// yet, the learner lands on it).

/** Wires a#start-stepping, if the page has it. */
export function mountStart(doc = document) {
  const start = doc.getElementById("start-stepping");
  const step = doc.getElementById("stepper-step");
  if (!start || !step) return;
  start.addEventListener("click", (event) => {
    event.preventDefault();
    (step.closest(".transport") || step).scrollIntoView({ block: "start" });
    step.focus({ preventScroll: true });
    if (!step.disabled && step.getAttribute("aria-disabled") !== "true") step.click();
  });
}
