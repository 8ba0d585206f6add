// The engine's bridge: globalThis.echomq over the module's exports.
//
// The Go program (wasm/main_js.go) exports four functions and no JS
// objects. Each call of globalThis.echomq writes [method, args] as JSON
// into a buffer the program owns, runs it (echomq_call), and parses the
// result's JSON from the program's memory: no syscall/js, so no goroutine
// woken per call. Node's contract tests and benchmarks load the worker
// (static/worker.js, worker.js bundled with this file) for publish()
// alone, so they measure the page's own bridge.

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * One argument in the form api.fromWire reads (wasm/api/module.go): plain
 * JSON, with every object, every value JSON has no form for and every
 * number it has no digits for wrapped, so each still gets its own error.
 */
function toWire(v, depth) {
  switch (typeof v) {
    case "string":
    case "boolean":
      return v;
    case "number":
      return Number.isFinite(v) && !Object.is(v, -0) ? v : { n: String(v) };
    case "bigint":
      return { f: "a bigint" };
    case "object": {
      if (v === null) return null;
      if (depth > 32) return { f: "a value nested more than 32 levels deep" };
      if (Array.isArray(v)) return v.map((x) => toWire(x, depth + 1));
      const o = Object.create(null);
      for (const k of Object.keys(v)) o[k] = toWire(v[k], depth + 1);
      return { o };
    }
  }
  return { f: typeof v }; // undefined, function, symbol
}

/**
 * Makes globalThis.echomq (or the name go.env.ECHOMQ_GLOBAL gives, for a
 * benchmark running two builds) over a started instance, and returns it.
 * Each function returns a plain object and throws only once the Go program
 * has stopped, as a syscall/js function would.
 */
export function publish(go, instance) {
  const x = instance.exports;
  let stopped = "";
  // A view on the module's memory is made from x.mem.buffer read after the
  // last export called before it: an export that allocates may grow the
  // memory, which detaches every ArrayBuffer taken from it before. And
  // every address or length an export returns is a uint32: past 2 GiB it
  // comes to JS as a negative i32, so each is read >>> 0.
  const view = (at, n) => new Uint8Array(x.mem.buffer, at, n);
  const read = (n) => {
    const at = x.echomq_result() >>> 0;
    return JSON.parse(decoder.decode(view(at, n)));
  };
  const run = (method, args) => {
    if (go.exited) throw new Error("Go program has already exited");
    if (stopped) throw new Error(stopped);
    let text;
    try {
      text = JSON.stringify([method, args.map((a) => toWire(a, 0))]);
    } catch (err) {
      // A getter that throws, arguments too long for one JS string: the
      // module words the answer (api.readRequest) from what was thrown.
      text = JSON.stringify([method, [], String(err && err.message ? err.message : err)]);
    }
    // Written straight into the module's buffer: a request of ASCII (the
    // usual one) is as many bytes as it has characters. Any other is
    // longer and does not fit, and is encoded again at its own length.
    // The module answers 0 for room it refuses (a request past its cap),
    // and its answer to the call then says why.
    let size = text.length;
    let at = x.echomq_buffer(size) >>> 0;
    if (at !== 0 && encoder.encodeInto(text, view(at, size)).read < text.length) {
      const bytes = encoder.encode(text);
      size = bytes.length;
      at = x.echomq_buffer(size) >>> 0;
      if (at !== 0) view(at, size).set(bytes);
    }
    const n = x.echomq_call(size) >>> 0;
    if (n === 0) {
      // The program parked inside the call and gave back control half-way
      // (see wasm/main_js.go): it cannot be trusted with another.
      stopped = "the engine stopped in the middle of a call";
      throw new Error(stopped);
    }
    return read(n);
  };
  const hello = read(x.echomq_hello() >>> 0);
  const api = { version: hello.version };
  if (typeof hello.failed === "string") api.failed = hello.failed;
  else for (const m of hello.methods) api[m] = (...args) => run(m, args);
  globalThis[(go.env && go.env.ECHOMQ_GLOBAL) || "echomq"] = api;
  return api;
}
