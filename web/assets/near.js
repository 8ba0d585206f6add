// When an embed starts its engine: once its frame comes within a screen of
// the course page's viewport, so a long course page pays only for the
// embeds its reader reaches.
//
// "Within a screen" is judged where the frame will stay. A frame starts at
// the browser's 150 px (or the height embed.js reserved), and every frame
// above it grows as its widget reports its height; judged at once, an
// embed three screens down can look near and start for nothing. So the
// embed first waits until its frame fits its content (the course page has
// sized it) or, where nobody sizes frames, a moment, and a frame that
// looks near must still look near once the page has settled.

/** The longest an embed waits for its frame to be sized, in ms. */
const SIZE_WAIT = 1500;

/** How long a frame must stay near before it starts, in ms: the frames above it may still be growing. */
const SETTLE = 250;

/**
 * Resolves when the page is near the reader's viewport: at once for a page
 * of its own; for an embed, as above. status says why an embed waits.
 */
export function whenNear(status) {
  if (!document.body.classList.contains("embed") || typeof IntersectionObserver !== "function") return Promise.resolve();
  // (data-near says which it is, for whoever reads the page: "waiting", then "started".)
  document.documentElement.dataset.near = "waiting";
  return sized().then(
    () =>
      new Promise((resolve) => {
        let waiting = true;
        let timer = 0;
        const watch = new IntersectionObserver(
          (entries) => {
            const near = entries[entries.length - 1].isIntersecting;
            clearTimeout(timer);
            if (!near) {
              if (waiting) status("Starts when you scroll to it");
              return;
            }
            timer = setTimeout(() => {
              waiting = false;
              document.documentElement.dataset.near = "started";
              watch.disconnect();
              resolve();
            }, SETTLE);
          },
          { rootMargin: "100% 0px" },
        );
        watch.observe(document.body);
      }),
  );
}

/** Resolves once a framed page's frame fits its content, or after SIZE_WAIT. */
function sized() {
  if (window.parent === window) return Promise.resolve();
  const fits = () => innerHeight >= Math.ceil(document.documentElement.getBoundingClientRect().height) - 2;
  if (fits()) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      removeEventListener("resize", check);
      clearTimeout(timer);
      resolve();
    };
    const check = () => {
      if (fits()) done();
    };
    addEventListener("resize", check);
    const timer = setTimeout(done, SIZE_WAIT);
  });
}
