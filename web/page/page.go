// Package page holds the playground's templ components and the view models
// they render. Components take a view model and nothing else, so a test can
// render them with fixed values and compare the HTML byte for byte.
//
// The pages carry no data from the engine: every value a learner sees about
// the keyspace, a reply or a script is filled in at run time by the ES
// module from globalThis.echomq. What the components render is the frame:
// headings, labels, controls (disabled until the engine is ready), empty
// tables with their captions, and the course's copy.
//
// The package is for the host only (the renderer and its tests): nothing
// under wasm/ may import it, so templ never ends up in echomq.wasm.
package page

import (
	"strconv"

	"echomq.dev/playground/lua"
)

// Title is the document title of the enqueue & claim playground.
const Title = "EchoMQ Playground — Enqueue & claim"

// Widget names: the id of each widget's section on the full page, and the
// name of its embed page, static/embed/<name>.html.
const (
	WidgetStepper   = "stepper"
	WidgetBeats     = "beats"
	WidgetVerdicts  = "verdicts"
	WidgetRoundTrip = "roundtrip"
	WidgetEditor    = "editor"
	WidgetConsole   = "console"
	WidgetWorkers   = "workers"
)

// WidgetNames lists the widgets in page order.
var WidgetNames = []string{WidgetStepper, WidgetBeats, WidgetVerdicts, WidgetRoundTrip, WidgetEditor, WidgetConsole, WidgetWorkers}

// Site is what every page loads: the URLs of its files, relative to the page
// itself so the site can be copied anywhere (a course, a file server, a
// sub-path), and the size of the Go program. A page loads one stylesheet
// and one script, both bundles of web/assets (web/bundle), so an embed is
// Ready after its document, those two, the favicon, the engine's worker
// and the Go program.
type Site struct {
	Title string

	IconURL   string // the favicon (without one, browsers ask for /favicon.ico and log a 404)
	StyleURL  string // the stylesheet: every sheet in Styles, in cascade order
	WorkerURL string // the engine's worker, a classic script with Go's wasm_exec.js inside it
	ScriptURL string // the page's one ES module: app.js and everything it imports
	WasmURL   string // the Go program

	// Embedded pages start the engine late and often share it: an embed
	// waits until its frame is near the viewport, and embeds of one course
	// page share one worker that downloads the Go program itself.
	Embedded bool

	// WasmBytes is the size of the uncompressed WebAssembly file when it is
	// known at render time, or 0. The page uses it as the progress bar's
	// total when the server's Content-Length describes compressed bytes.
	WasmBytes int64

	// OEmbedURL is the page's oEmbed description (embed/<widget>.json), for
	// a platform that embeds by URL; "" for none.
	OEmbedURL string
}

// Entry is the page's module in web/assets: the bundle starts there.
const Entry = "app.js"

// ClassicScripts are the entries in web/assets that are not modules of the
// page, each bundled into one classic script with what it imports:
// worker.js runs the engine in a Web Worker (engine.js starts it; the
// site's echomq-worker.js is that bundle with Go's wasm_exec.js before
// it), and embed.js runs in a course page around an embed's iframe.
var ClassicScripts = map[string]bool{WorkerEntry: true, "embed.js": true}

// WorkerEntry is the engine's worker in web/assets, the entry of its bundle.
const WorkerEntry = "worker.js"

// BridgeEntry is the worker's bridge (publish: globalThis.echomq over the
// module's exports), which web/bundle also makes into a CommonJS module
// of its own, BridgeFile in the site: Node's contract tests and benches
// require it beside static/echomq.wasm, so they measure the page's own
// bridge.
const (
	BridgeEntry = "worker-bridge.js"
	BridgeFile  = "worker.js"
)

// Styles are the stylesheets in web/assets, in cascade order: the page's
// own first, then one per experiment widget, then the course's prose and
// contents, then the handout's print rules last, so they win.
var Styles = []string{"app.css", "editor.css", "console.css", "workers.css", "course.css", "first-step.css", "print.css"}

// The files the renderer builds (web/bundle) under these plain names in
// the site; the pages load their hashed copies. EmbedFile is the course
// page's script, bundled from web/assets/embed.js, which hosts link to by
// its plain name only.
const (
	ScriptFile = "app.js"
	StyleFile  = "app.css"
	WorkerFile = "echomq-worker.js"
	EmbedFile  = "embed.js"
)

// EmbedDefines are the values the build puts into embed.js (web/bundle's
// Classic): the widgets the custom element knows, their titles, and the
// iframe's sandbox and permissions.
func EmbedDefines() map[string]any {
	return map[string]any{
		"__ECHOMQ_WIDGETS__": WidgetNames,
		"__ECHOMQ_TITLES__":  widgetTitles,
		"__ECHOMQ_SANDBOX__": EmbedSandbox,
		"__ECHOMQ_ALLOW__":   EmbedAllow,
		"__ECHOMQ_HEIGHTS__": EmbedHeights,
	}
}

// EmbedHeights are each widget's height in px once it is ready, in a
// frame 720 px wide and in one 360 px wide (measured in Chromium on the
// built embeds). embed.js reserves a frame's height from them, for the
// frame's width, before the widget reports its own: a course page then
// hardly moves while its embeds arrive, and each embed's "within a
// screen" is judged where the frame will stay, not where a 150 px frame
// would leave it.
var EmbedHeights = map[string][2]int{
	WidgetStepper: {1898, 2674}, WidgetBeats: {1349, 1597}, WidgetVerdicts: {721, 1128},
	WidgetRoundTrip: {1679, 2500}, WidgetEditor: {1821, 2434}, WidgetConsole: {421, 672},
	WidgetWorkers: {1845, 2984},
}

// DefaultSite is the site as build.sh renders it at its root, minus the
// wasm size, which only the renderer can know.
func DefaultSite() Site {
	return Site{
		Title:     Title,
		IconURL:   "favicon.svg",
		StyleURL:  StyleFile,
		WorkerURL: WorkerFile,
		ScriptURL: ScriptFile,
		WasmURL:   "echomq.wasm",
	}
}

// Under returns the site as seen from a page in a sub-directory: every URL
// gains the prefix (for example "../").
func (s Site) Under(prefix string) Site {
	out := s
	out.IconURL = prefix + s.IconURL
	out.StyleURL = prefix + s.StyleURL
	out.WorkerURL = prefix + s.WorkerURL
	out.ScriptURL = prefix + s.ScriptURL
	out.WasmURL = prefix + s.WasmURL
	return out
}

// Renamed returns the site with every file that names has an entry for
// under its new name: the renderer's names that carry the file's content
// hash (app.js → app.<hash>.js). URLs are the site's own, not Under a
// prefix, and names missing from names (or mapped to "") stay.
func (s Site) Renamed(names map[string]string) Site {
	rename := func(u string) string {
		if n := names[u]; n != "" {
			return n
		}
		return u
	}
	out := s
	out.IconURL = rename(s.IconURL)
	out.StyleURL = rename(s.StyleURL)
	out.WorkerURL = rename(s.WorkerURL)
	out.ScriptURL = rename(s.ScriptURL)
	out.WasmURL = rename(s.WasmURL)
	return out
}

// Widgets is what the seven widgets start with. It holds no engine data.
type Widgets struct {
	// Queue is the one queue every widget works on, like one Redis.
	Queue string

	Stepper   Stepper
	Beats     Beats
	Verdicts  Verdicts
	RoundTrip RoundTrip
	Editor    Editor
	Console   Console
	Workers   Workers
}

// Stepper is the view of the @enqueue stepper.
type Stepper struct {
	// Moves are the moves of @enqueue, from the script's own markers.
	Moves []Move
	// Payload is the payload the stepper enqueues with.
	Payload string
}

// Move is one move of a script as the stepper lists it.
type Move struct {
	N       int
	Name    string
	Summary string // what the move does, in the page's words
}

// Beats is the view of the two beats: the handle's code, tokenized.
type Beats struct {
	Handle []CodeLine
}

// Verdicts is the view of the three-verdicts widget.
type Verdicts struct {
	Payload string // the payload every enqueue of this widget carries
}

// RoundTrip is the view of the enqueue/claim round trip.
type RoundTrip struct {
	Payload   string
	LeaseMS   int64
	AdvanceMS int64
}

// DefaultWidgets are the widgets as build.sh renders them.
func DefaultWidgets() Widgets {
	return Widgets{
		Queue: "q",
		Stepper: Stepper{
			Moves:   movesOf(lua.Enqueue()),
			Payload: `{"task":"step"}`,
		},
		Beats:     Beats{Handle: Highlight(HandleSource)},
		Verdicts:  Verdicts{Payload: `{"task":"hello"}`},
		RoundTrip: RoundTrip{Payload: `{"task":"resize","w":640}`, LeaseMS: 30000, AdvanceMS: 10000},
		Editor:    DefaultEditor(),
		Console:   DefaultConsole(),
		Workers:   DefaultWorkers(),
	}
}

// moveSummaries say what each @enqueue move does, keyed by the move's name
// in the script's "-- @move" marker.
var moveSummaries = map[string]string{
	"gate":        "Is the id JOB-branded? If not, refuse with EMQKIND.",
	"idempotency": "Does the row exist already? Then answer 0 and stop.",
	"row":         "Write the row: state, attempts and payload.",
	"pending":     "Add the id to the pending set at score 0, answer 1.",
}

func movesOf(s *lua.Script) []Move {
	out := make([]Move, len(s.Moves))
	for i, m := range s.Moves {
		out[i] = Move{N: m.N, Name: m.Name, Summary: moveSummaries[m.Name]}
	}
	return out
}

// Index is the view model of static/index.html: every widget on one page,
// sharing one engine.
type Index struct {
	Site
	Widgets
	// Recording is the lesson widgets' recorded runs (web/recording) as
	// JSON, which the page works on while the engine loads; "" for none.
	Recording string
}

// DefaultIndex is the index page as build.sh renders it, minus the wasm
// size, which only the renderer can know.
func DefaultIndex() Index {
	return Index{Site: DefaultSite(), Widgets: DefaultWidgets()}
}

// Embed is the view model of static/embed/<Widget>.html: one widget alone,
// for an iframe in a course page. It loads the engine itself.
type Embed struct {
	Site
	Widgets
	Widget string // one of WidgetNames
	// Recording is the widget's recorded run (web/recording) as JSON, which
	// the page steps while the engine loads; "" for none.
	Recording string
}

// recordingElement is the inline data block that carries a recording. It
// is data, never run, so the strict Content-Security-Policy allows it; the
// JSON comes from json.Marshal, which escapes "<", so it cannot end the
// element.
func recordingElement(json string) string {
	return `<script type="application/json" id="echomq-recording">` + json + `</script>`
}

// DefaultEmbed is the embed page of one widget as build.sh renders it: the
// page lives in embed/, so every URL climbs one level.
func DefaultEmbed(widget string) Embed {
	s := DefaultSite().Under("../")
	s.Title = widgetTitles[widget] + " — EchoMQ Playground"
	s.Embedded = true
	return Embed{Site: s, Widgets: DefaultWidgets(), Widget: widget}
}

// widgetTitles name the embed pages.
var widgetTitles = map[string]string{
	WidgetStepper:   "Step the @enqueue moves",
	WidgetBeats:     "The two beats of @enqueue",
	WidgetVerdicts:  "Run @enqueue: the three verdicts",
	WidgetRoundTrip: "Enqueue, then claim: the round trip",
	WidgetEditor:    "Edit a script and run it",
	WidgetConsole:   "A redis-cli console",
	WidgetWorkers:   "Two workers, one queue",
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// Key names, for the captions. They mirror emq.Keyspace; the page never
// imports wasm/, so the few lines are repeated here.
func keyOf(queue, name string) string { return "emq:{" + queue + "}:" + name }

// PendingKey is the queue's pending set.
func PendingKey(queue string) string { return keyOf(queue, "pending") }

// ActiveKey is the queue's active set, scored by lease deadline.
func ActiveKey(queue string) string { return keyOf(queue, "active") }

// JobKeyPattern names every job row of the queue, for a caption.
func JobKeyPattern(queue string) string { return keyOf(queue, "job:…") }

// Lesson is the view model of static/lesson.html, the offline lesson: the
// index page, plus the HTML that carries what it would otherwise fetch.
type Lesson struct {
	Index
	// Head holds the inline <style> and the bundled <script type="module">.
	Head string
	// Payload holds the engine: the worker's script as text and the gzip-
	// compressed module as base64, in inert <script> elements.
	Payload string
}

// WidgetTitle is the title of a widget's embed page and of its iframe in
// the README's snippet ("Step the @enqueue moves"), "" for no widget.
func WidgetTitle(widget string) string { return widgetTitles[widget] }

// EmbedSandbox is the sandbox every embed's iframe gets (the custom
// element's, the oEmbed snippet's, the README's): scripts, and its own
// origin, which its shared worker and its storage need; popups, so a
// card's official page opens outside the frame. No top navigation, no
// forms, no modals.
const EmbedSandbox = "allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox"

// EmbedAllow is the permissions policy of an embed's iframe: "Copy link"
// writes to the clipboard.
const EmbedAllow = "clipboard-write"
