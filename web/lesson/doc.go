// Package lesson writes static/lesson.html: the whole playground in one
// file that opens from disk (file://) with no server and no network. The
// stylesheets are inlined, the page's ES modules are bundled into one
// inline module (Bundle), and the engine travels inside the page: the
// worker's script as text, and echomq.wasm gzip-compressed and base64
// encoded, which the page inflates with DecompressionStream.
package lesson
