// The engine's code cache: what lets the next visit compile nothing.
//
// V8 keeps the code it compiled from compileStreaming of a cacheable
// response (README), but Chromium 156 writes it only once its optimising
// compiler has made about 1 MB of code for the module at a stretch (V8's
// --wasm-caching-hard-threshold). Its other path, "2 s after the last
// function it optimised", never wrote an entry in any run here, even 20 s
// after Ready. Starting the engine optimises about a quarter of that, so a
// first visit left no entry at all (72 B of index). So after a download
// (not a module from the HTTP cache, whose code was kept on the visit that
// downloaded it, nor the offline lesson's bytes, which have no entry to
// key it to) the worker runs the lesson's round trip in a keyspace of its
// own, in slices of WARM_SLICE_MS, and drops the keyspace: the code it
// optimises is the code a learner's clicks run, and V8 writes its entry
// (1.4 MB) once it is done. It works only while the pages are quiet: no
// call for WARM_IDLE_MS (the embeds of a course page are still starting
// for a while after the first is Ready), and a call waits at most a slice.
const WARM_ROUNDS = 2400;
const WARM_SLICE_MS = 8;
const WARM_IDLE_MS = 500;
const WARM_KEYSPACE = "echomq:code-cache";

/**
 * Warms api (globalThis.echomq) in slices while the pages are quiet.
 * ready() says whether the engine still runs; lastCall() is when a page
 * last called, performance.now() (worker.js keeps both).
 */
export function warmCodeCache(api, ready, lastCall) {
  if (!api || typeof api.call !== "function") return;
  let round = 0;
  const slice = () => {
    if (!ready()) return;
    const quiet = performance.now() - lastCall();
    if (quiet < WARM_IDLE_MS) return setTimeout(slice, WARM_IDLE_MS - quiet);
    const until = performance.now() + WARM_SLICE_MS;
    while (round < WARM_ROUNDS && performance.now() < until) {
      // A reset every 200 rounds keeps the keyspace a few hundred jobs long.
      if (round % 200 === 0) api.call(WARM_KEYSPACE, "reset", []);
      api.call(WARM_KEYSPACE, "enqueue", ["q", `warm-${round}`, "{}"]);
      api.call(WARM_KEYSPACE, "claim", ["q", 30000]);
      api.call(WARM_KEYSPACE, "snapshot", ["q", 25]);
      round++;
    }
    if (round < WARM_ROUNDS) setTimeout(slice, 0);
    else api.drop(WARM_KEYSPACE);
  };
  setTimeout(slice, WARM_IDLE_MS);
}
