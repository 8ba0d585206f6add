// Package lesson writes static/lesson.html: the whole playground in one
// file that opens from disk (file://) with no server and no network. The
// site's bundles (web/bundle) are inlined: the stylesheet, the page's one
// module, and the engine's worker as text, with echomq.wasm
// gzip-compressed and base64 encoded, which the page inflates with
// DecompressionStream.
package lesson
