// What a course author hears when their host sends the engine
// uncompressed. echomq.wasm is about 11 MiB as it stands and about a fifth
// of that as brotli (static/ holds the .br and .gz copies beside it); a
// plain static host that does not send them makes every reader download
// the whole of it, which on a slow phone link is a minute before Ready
// instead of a quarter of one. The worker notices (worker.js: the
// response's Content-Encoding and Content-Length, or the bytes on the
// wire); the page says so in the console always, and on the page too
// while the site is served from the author's own machine.

/** True where the page is served from this machine: the author's development copy. */
export function inDevelopment(loc = location) {
  const host = loc.hostname;
  return host === "localhost" || host.endsWith(".localhost") || host === "127.0.0.1" || host === "[::1]" || host === "::1";
}

/** The author's words for an uncompressed engine: {console, page}. */
export function uncompressedWords({ url, bytes }) {
  const mib = (bytes / 1048576).toFixed(1);
  const file = String(url).split("/").pop();
  return {
    console:
      `EchoMQ Playground: the host sent ${file} uncompressed, ${mib} MiB on the wire; with brotli it is about a fifth of that. ` +
      `Serve the .br (or .gz) file beside it with Content-Encoding: br (or gzip), Content-Type: application/wasm and Vary: Accept-Encoding ` +
      `when the browser accepts it; the README's "Headers a host must send" has ready settings for nginx, Apache, Netlify and Caddy.`,
    page:
      `For the author of this page: the host sent the engine uncompressed (${mib} MiB; about a fifth of that with brotli), so every reader downloads all of it. ` +
      `Have the host send echomq.wasm's .br or .gz copy with Content-Encoding: see "Headers a host must send" in the playground's README. (This note shows only while the site is served from this machine; the browser's console says it everywhere.)`,
  };
}

/** Says it: in the console, and on the page (notice) in development. */
export function warnUncompressed(info, notice, loc = location) {
  const words = uncompressedWords(info);
  console.warn(words.console);
  if (inDevelopment(loc)) notice(words.page);
}
