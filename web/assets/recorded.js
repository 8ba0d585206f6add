// The recorded run: what the engine answered, natively, when the site was
// built (web/recording), answered here while the live engine loads.
//
// A call is answered from the recording only when the keyspace-changing
// calls before it (the page's journal) and the call itself are exactly the
// recorded ones; anything else waits for the live engine. Once the live
// engine is ready, handOver() runs every answered call on it again, in
// order, and compares the answers with the recorded ones as JSON text:
// that both checks the recording and brings the live keyspace to where
// the page already is, so the engine takes over without a visible jump.

/** The page's recording, or null when it has none (or an unreadable one). */
export function readRecording() {
  const el = document.getElementById("echomq-recording");
  if (!el) return null;
  let rec;
  try {
    rec = JSON.parse(el.textContent);
  } catch {
    return null;
  }
  if (!rec || rec.v !== 1 || !Array.isArray(rec.calls)) return null;
  const byKey = new Map();
  let scripts = null;
  for (const c of rec.calls) {
    if (c.method === "scripts") scripts = c.result;
    else byKey.set(keyOf(c.before, c.method, c.args), c.result);
  }
  if (!Array.isArray(scripts)) return null;
  return new Recorder(rec, byKey, scripts);
}

const keyOf = (before, method, args) => JSON.stringify([before, method, args]);

class Recorder {
  constructor(rec, byKey, scripts) {
    this.widget = rec.widget;
    this.queue = rec.queue;
    this.scripts = scripts;
    this.byKey = byKey;
    /** The calls answered so far: [method, args, result]. */
    this.answered = [];
  }

  /** The recorded answer to a call after the writes ops, or undefined. */
  answer(ops, method, args) {
    const key = keyOf(ops, method, args);
    if (!this.byKey.has(key)) return undefined;
    const result = structuredClone(this.byKey.get(key));
    this.answered.push([method, args, result]);
    return result;
  }

  /**
   * Runs the answered calls on the live engine, in order, and compares.
   * Returns {calls, differences}: how many calls were checked (the
   * scripts count as one), and a sentence per answer that differed.
   */
  async handOver(live) {
    const differences = [];
    if (JSON.stringify(live.scripts) !== JSON.stringify(this.scripts)) differences.push("the scripts differ");
    for (const [method, args, recorded] of this.answered) {
      const got = await live.call(method, args);
      if (JSON.stringify(got) !== JSON.stringify(recorded)) differences.push(`${method} answered otherwise`);
    }
    return { calls: this.answered.length + 1, differences };
  }
}
