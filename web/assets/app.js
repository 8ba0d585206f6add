// EchoMQ Playground: page script.
//
// Downloads echomq.wasm with a visible byte count, starts it with Go's
// wasm_exec.js (loaded before this module as a classic script), waits for
// the Go program to publish globalThis.echomq, then wires the demo form to
// it. The engine answers every call with a plain object; errors come back as
// {error, message} rather than being thrown.
//
// The Go program is meant to run for the life of the page. If go.run()'s
// promise settles, Go has exited: that is a crash, and the page says so.

const READY_TIMEOUT_MS = 15000;
const READY_POLL_MS = 20;

const $ = (id) => {
  const el = document.getElementById(id);
  if (!el) throw new Error(`page is missing #${id}`);
  return el;
};

const ui = {
  loader: $("loader"),
  download: $("download"),
  progress: $("download-progress"),
  bytes: $("download-bytes"),
  status: $("status"),
  failure: $("failure"),
  failureMessage: $("failure-message"),
  reload: $("reload"),
  form: $("demo-form"),
  queue: $("queue"),
  jobId: $("job-id"),
  payload: $("payload"),
  lease: $("lease"),
  enqueue: $("enqueue"),
  claim: $("claim"),
  verdict: $("verdict"),
  result: $("result"),
  snapshot: $("snapshot"),
  version: $("engine-version"),
};

let failed = false;

function setStatus(text) {
  if (ui.status.textContent !== text) ui.status.textContent = text;
}

function setControls(enabled) {
  ui.enqueue.disabled = !enabled;
  ui.claim.disabled = !enabled;
}

/** Shows the error panel; the first failure wins, later ones only log. */
function fail(message, cause) {
  if (cause !== undefined) console.error(message, cause);
  if (failed) return;
  failed = true;
  setControls(false);
  ui.download.hidden = true;
  setStatus("Stopped");
  ui.failureMessage.textContent = message;
  ui.failure.hidden = false;
  ui.reload.focus();
}

ui.reload.addEventListener("click", () => location.reload());

// ---- download -----------------------------------------------------------

function formatBytes(n) {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MiB`;
}

/**
 * Puts loaded/total on the bar. total 0 means unknown: the bar is left
 * indeterminate (no value attribute) and only the byte count is shown.
 */
function showProgress(loaded, total) {
  if (total > 0) {
    ui.progress.max = total;
    ui.progress.value = Math.min(loaded, total);
    ui.bytes.textContent = `${formatBytes(loaded)} of ${formatBytes(total)}`;
  } else {
    ui.progress.removeAttribute("value");
    ui.bytes.textContent = `${formatBytes(loaded)}`;
  }
}

/**
 * The number of bytes the body stream will yield, or 0 if unknown.
 * Content-Length counts the bytes on the wire, so it only describes the
 * body when the response is not content-encoded; otherwise fall back to the
 * size the renderer wrote into the page, if any.
 */
function expectedBytes(response) {
  const encoding = (response.headers.get("Content-Encoding") || "identity").trim().toLowerCase();
  const length = Number(response.headers.get("Content-Length"));
  if (encoding === "identity" && Number.isSafeInteger(length) && length > 0) return length;
  const hint = Number(ui.loader.dataset.wasmBytes);
  return Number.isSafeInteger(hint) && hint > 0 ? hint : 0;
}

async function download(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: the server answered ${response.status} ${response.statusText}`.trim());
  let total = expectedBytes(response);
  showProgress(0, total);
  if (!response.body) {
    const whole = new Uint8Array(await response.arrayBuffer());
    showProgress(whole.byteLength, whole.byteLength);
    return whole;
  }
  const reader = response.body.getReader();
  const chunks = [];
  let loaded = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    loaded += value.byteLength;
    if (total > 0 && loaded > total) total = 0; // the hint was wrong: stop pretending
    showProgress(loaded, total);
  }
  const bytes = new Uint8Array(loaded);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  showProgress(loaded, loaded);
  return bytes;
}

// ---- start --------------------------------------------------------------

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Resolves with globalThis.echomq once the Go program has published it. */
async function whenPublished(exit) {
  const deadline = performance.now() + READY_TIMEOUT_MS;
  while (!globalThis.echomq) {
    if (exit.settled) throw new Error("stopped before it was ready");
    if (performance.now() > deadline) {
      throw new Error(`echomq did not appear within ${READY_TIMEOUT_MS / 1000} s`);
    }
    await sleep(READY_POLL_MS);
  }
  return globalThis.echomq;
}

async function start() {
  if (typeof WebAssembly !== "object") {
    throw new Error("This browser does not support WebAssembly.");
  }
  if (typeof globalThis.Go !== "function") {
    throw new Error("wasm_exec.js did not load, so the Go runtime is missing.");
  }
  const url = ui.loader.dataset.wasmUrl || "echomq.wasm";
  setStatus(`Downloading ${url}…`);
  const bytes = await download(url);

  setStatus("Starting…");
  const go = new globalThis.Go();
  const exit = { settled: false, code: undefined };
  const goExit = go.exit;
  go.exit = (code) => {
    exit.code = code;
    goExit.call(go, code);
  };
  const { instance } = await WebAssembly.instantiate(bytes, go.importObject);
  go.run(instance).then(
    () => {
      exit.settled = true;
      const code = exit.code === undefined ? "" : ` with code ${exit.code}`;
      fail(`The playground stopped: the Go program exited${code}. The browser console may say why. Reload to start again.`);
    },
    (err) => {
      exit.settled = true;
      fail("The playground crashed. Reload to start again.", err);
    },
  );

  const echomq = await whenPublished(exit);
  if (failed) return;
  ui.version.textContent = String(echomq.version ?? "unknown");
  ui.download.hidden = true;
  setStatus("Ready");
  setControls(true);
  showSnapshot(echomq, ui.queue.value);
}

// ---- demo ---------------------------------------------------------------

function json(value) {
  return JSON.stringify(value, null, 2);
}

/** Calls the engine; a throw (e.g. after Go exited) becomes an error reply. */
function call(fn) {
  try {
    return fn();
  } catch (err) {
    return { error: "js", message: String(err && err.message ? err.message : err) };
  }
}

function showSnapshot(echomq, queue) {
  ui.snapshot.textContent = json(call(() => echomq.snapshot(queue)));
}

function show(echomq, what, queue, result) {
  ui.result.textContent = json(result);
  if (result && result.error) {
    ui.verdict.textContent = `${what}: error ${result.error}${result.message ? `: ${result.message}` : ""}`;
  } else {
    ui.verdict.textContent = `${what}: ${result && result.verdict ? result.verdict : "done"}`;
  }
  showSnapshot(echomq, queue);
}

function enqueue() {
  const echomq = globalThis.echomq;
  if (!echomq || failed) return;
  const queue = ui.queue.value;
  const id = ui.jobId.value;
  show(echomq, `enqueue ${id}`, queue, call(() => echomq.enqueue(queue, id, ui.payload.value)));
}

function claim() {
  const echomq = globalThis.echomq;
  if (!echomq || failed) return;
  if (!ui.queue.reportValidity()) return;
  const queue = ui.queue.value;
  // The lease goes to the engine as typed (as a number when it is one), so a
  // bad lease shows the script's own EMQLEASE error rather than a page rule.
  const typed = ui.lease.value.trim();
  const lease = /^\d+$/.test(typed) && Number.isSafeInteger(Number(typed)) ? Number(typed) : typed;
  show(echomq, "claim", queue, call(() => echomq.claim(queue, lease)));
}

ui.form.addEventListener("submit", (event) => {
  event.preventDefault();
  enqueue();
});
ui.claim.addEventListener("click", claim);

start().catch((err) => fail(`The playground could not start: ${err && err.message ? err.message : err}`, err));
