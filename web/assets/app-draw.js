// The page's own render part, beside its widgets': the download's bar and
// byte count, and the key names the templates printed for the default
// queue. Functions of the elements and plain values; the state they need
// between frames lives in the closure progressBar returns.

/** A byte count as the loading panel says it: B, KiB or MiB. */
function formatBytes(n) {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MiB`;
}

/**
 * The download's progress on ui.progress and ui.bytes: returns
 * show(loaded, total), which puts loaded/total on the bar at most once per
 * frame. total 0 means unknown: the bar is left indeterminate and only
 * the byte count shows.
 */
export function progressBar(ui) {
  let frame = 0;
  let next = null;
  return (loaded, total) => {
    next = [loaded, total];
    if (frame) return;
    frame = requestAnimationFrame(() => {
      frame = 0;
      const [l, t] = next;
      if (t > 0) {
        ui.progress.max = t;
        ui.progress.value = Math.min(l, t);
        ui.bytes.textContent = `${formatBytes(l)} of ${formatBytes(t)}`;
      } else {
        ui.progress.removeAttribute("value");
        ui.bytes.textContent = formatBytes(l);
      }
    });
  };
}

/**
 * Rewrites the key names the templates printed for the default queue "q"
 * (captions such as emq:{q}:pending) to the queue chosen in the URL.
 */
export function renameQueue(queue) {
  for (const el of document.querySelectorAll("code.key")) {
    el.textContent = el.textContent.replaceAll("{q}", `{${queue}}`);
  }
}
