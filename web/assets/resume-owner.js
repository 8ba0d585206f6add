// One owner per saved lesson. Every tab of the same page reads and writes
// one localStorage entry, so with two tabs open the last one to save would
// silently win, and one tab's "Start afresh" would erase what the other
// was keeping. A Web Lock named after the entry settles it: the tab that
// holds the lock is the one that saves and offers to resume; any other tab
// is told so, keeps its work on screen only, and takes over (saying so)
// when the owner closes, because the browser hands the lock on then.
//
// Where the browser has no Web Locks (or refuses them, as an opaque file:
// origin may), every tab owns its entry, as before.

/** A lock that is held for the rest of the page's life. */
const forever = new Promise(() => {});

/**
 * Asks to own the saved lesson called name. Returns {now, later}: now is a
 * promise of whether this tab owns it at once; later(cb) waits for the
 * lock (a tab that did not get it) and calls cb once this tab owns it.
 */
export function ownSaved(name, locks = globalThis.navigator?.locks) {
  if (!locks || typeof locks.request !== "function") return { now: Promise.resolve(true), later() {} };
  const now = new Promise((resolve) => {
    try {
      locks
        .request(name, { ifAvailable: true }, (lock) => {
          resolve(lock !== null);
          return lock ? forever : undefined;
        })
        .catch(() => resolve(true));
    } catch {
      resolve(true);
    }
  });
  const later = (cb) => {
    try {
      locks
        .request(name, () => {
          cb();
          return forever;
        })
        .catch(() => {});
    } catch {
      // no lock to wait for: this tab stays a reader
    }
  };
  return { now, later };
}
