package page

import "github.com/a-h/templ"

// The course's own sections, around the widgets: the lesson page follows
// the course page's order, so a learner with no network reads the whole
// lesson, not just its widgets. The prose is the playground's, written
// from the course's facts.

// Section is one entry of the page's table of contents: the id of the
// element it jumps to and the words the contents list shows. A widget's
// part is the widget with the course's prose around it, so its anchor is
// PartID(widget), not the widget's own id (which permalinks use).
type Section struct {
	ID    string
	Title string
}

// PartID is the id of the element that holds a widget and the course's
// prose around it.
func PartID(widget string) string { return "part-" + widget }

// Section ids of the course's parts that are not widgets.
const (
	SectionOpening    = "opening"
	SectionFlatClaim  = "flat-claim"
	SectionPattern    = "pattern"
	SectionRecap      = "recap"
	SectionReferences = "references"
	SectionNext       = "next"
	SectionFurther    = "further"
)

// CourseSections are the page's parts in the course's order: the opening,
// the stepper, the two beats, the three verdicts, the flat claim and the
// round trip, pattern and implementation, the recap, the references and
// what comes next; then the widgets past the course, as "Go further".
// The table of contents lists exactly these, and the browser tests hold
// the page to this order.
var CourseSections = []Section{
	{SectionOpening, "Enqueue & claim"},
	{PartID(WidgetStepper), "Step the moves"},
	{PartID(WidgetBeats), "Two beats"},
	{PartID(WidgetVerdicts), "Three verdicts"},
	{SectionFlatClaim, "The flat claim"},
	{PartID(WidgetRoundTrip), "Round trip"},
	{SectionPattern, "Pattern & implementation"},
	{SectionRecap, "Recap"},
	{SectionReferences, "References"},
	{SectionNext, "What comes next"},
	{SectionFurther, "Go further"},
	{PartID(WidgetEditor), "Edit a script"},
	{PartID(WidgetConsole), "Console"},
	{PartID(WidgetWorkers), "Two workers"},
}

// courseProse are the course's sections that are not widgets, by id.
var courseProse = map[string]templ.Component{
	SectionOpening:    opening(),
	SectionFlatClaim:  flatClaim(),
	SectionPattern:    pattern(),
	SectionRecap:      recap(),
	SectionReferences: references(),
	SectionNext:       next(),
	SectionFurther:    further(),
}

// leads and takeaways are the course's prose before and after a widget,
// inside its part; a widget with none has a component that writes nothing.
var (
	leads = withNone(map[string]templ.Component{
		WidgetBeats:    beatsLead(),
		WidgetVerdicts: verdictsLead(),
	})
	takeaways = withNone(map[string]templ.Component{
		WidgetBeats:     beatsTakeaway(),
		WidgetVerdicts:  verdictsTakeaway(),
		WidgetRoundTrip: roundtripTakeaway(),
	})
)

// withNone fills in templ.NopComponent for every widget m does not name.
func withNone(m map[string]templ.Component) map[string]templ.Component {
	for _, name := range WidgetNames {
		if m[name] == nil {
			m[name] = templ.NopComponent
		}
	}
	return m
}

// coursePart is one of CourseSections: its prose, or a widget's part.
func coursePart(id string, w Widgets) templ.Component {
	if c, ok := courseProse[id]; ok {
		return c
	}
	for _, name := range WidgetNames {
		if PartID(name) == id {
			return part(name, w)
		}
	}
	return templ.NopComponent
}

// widgetViews render each widget, by name.
var widgetViews = map[string]func(Widgets) templ.Component{
	WidgetStepper:   stepper,
	WidgetBeats:     beats,
	WidgetVerdicts:  verdicts,
	WidgetRoundTrip: roundtrip,
	WidgetEditor:    editor,
	WidgetConsole:   console,
	WidgetWorkers:   workers,
}

// widget renders one widget by name, and nothing for a name it does not know.
func widget(name string, w Widgets) templ.Component {
	if v, ok := widgetViews[name]; ok {
		return v(w)
	}
	return templ.NopComponent
}

// CourseWidgets are the widgets the course itself holds, and FurtherWidgets
// those past it; together they are WidgetNames.
var (
	CourseWidgets  = []string{WidgetStepper, WidgetBeats, WidgetVerdicts, WidgetRoundTrip}
	FurtherWidgets = []string{WidgetEditor, WidgetConsole, WidgetWorkers}
)

// ClaimHandleSource is EchoMQ.Jobs.claim/3, the Elixir handle that checks
// the pause flag and runs @claim. The code is the course's; the comments
// are the playground's own.
const ClaimHandleSource = `# echo_mq · EchoMQ.Jobs
# claim/3 looks at the pause flag first, so @claim
# itself stays exactly the course's script.
# KEYS: the pending and the active set. ARGV: the
# row-key prefix "emq:{q}:job:" and the lease in ms.
def claim(conn, queue, lease_ms) when is_integer(lease_ms) and lease_ms > 0 do
  if paused?(conn, queue) do
    :empty
  else
    keys = [Keyspace.queue_key(queue, "pending"), Keyspace.queue_key(queue, "active")]
    argv = [Keyspace.queue_key(queue, "job:"), Integer.to_string(lease_ms)]

    case Connector.eval(conn, @claim, keys, argv) do
      {:ok, []} -> :empty                          # nothing to take
      {:ok, [id, payload, att]} -> {:ok, {id, payload, att}}  # leased
      other -> other
    end
  end
end`

// Reference is one of the course's sources: the documentation of a
// command one of the two bodies sends.
type Reference struct {
	Site    string // "Redis" or "Valkey", as the course cites it
	Command string
	URL     string
	Use     string // what the lesson uses it for, in the page's words
}

// References are the course's sources, in its order.
var References = []Reference{
	{"Redis", "EVALSHA", "https://redis.io/docs/latest/commands/evalsha/",
		"runs a script the server already holds, named by its SHA1: the connector sends each script this way first."},
	{"Valkey", "ZPOPMIN", "https://valkey.io/commands/zpopmin/",
		"removes and returns the lowest-scored member: how the flat claim takes the oldest pending id."},
	{"Valkey", "HSET", "https://valkey.io/commands/hset/",
		"sets fields of a hash: the three-field row is written with it."},
	{"Valkey", "ZADD", "https://valkey.io/commands/zadd/",
		"adds members to a sorted set with their scores: enqueue ends with it, and claim files the id into the active set with it."},
}
