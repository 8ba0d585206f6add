// The engine's download, as every page hears of it: the module's bytes
// counted on their way to the compiler, so the pages' progress bars move.

/**
 * body, passing through, with its progress told to every page (broadcast)
 * every 64 KiB and once at its end, followed by "compiling". total is the
 * expected size, or 0 when unknown.
 */
export function countedStream(body, total, broadcast) {
  let loaded = 0;
  let last = 0;
  return body.pipeThrough(
    new TransformStream({
      transform(chunk, controller) {
        loaded += chunk.byteLength;
        // A message per 64 KiB is plenty for a progress bar.
        if (loaded - last >= 65536) {
          last = loaded;
          broadcast({ type: "progress", loaded, total: total > 0 && loaded <= total ? total : 0 });
        }
        controller.enqueue(chunk);
      },
      flush() {
        broadcast({ type: "progress", loaded, total: loaded });
        broadcast({ type: "compiling" });
      },
    }),
  );
}

/** Reads body to its end only to tell its progress (countedStream): the compiler reads the response itself. */
export async function count(body, total, broadcast) {
  const reader = countedStream(body, total, broadcast).getReader();
  while (!(await reader.read()).done);
}
