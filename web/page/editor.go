package page

// Editor is the view of the script editor: edit a copy of one of the
// lesson's scripts (or write a new one), choose its KEYS and ARGV, and run
// it or step through it on the shared keyspace.
type Editor struct {
	// Bases are the texts the editor can start from, in the order the
	// chooser lists them; the first is chosen when the page loads.
	Bases []EditorBase
	// Payload is ARGV[2] of the default @enqueue call.
	Payload string
	// MaxSourceKiB and MaxArgs are the limits the editor keeps (and a
	// permalink is held to), said on the page next to the fields.
	MaxSourceKiB int
	MaxArgs      int
}

// EditorBase is one choice of starting text.
type EditorBase struct {
	Value string // "enqueue", "claim" or "new": what the module and a permalink call it
	Label string // what the chooser says
}

// DefaultEditor is the editor as build.sh renders it: enqueue.lua first,
// since the course's exercise edits it.
func DefaultEditor() Editor {
	return Editor{
		Bases: []EditorBase{
			{Value: "enqueue", Label: "enqueue.lua"},
			{Value: "claim", Label: "claim.lua"},
			{Value: "new", Label: "A new script"},
		},
		Payload:      `{"task":"edit"}`,
		MaxSourceKiB: 64,
		MaxArgs:      64,
	}
}

func editorBaseID(value string) string { return "editor-base-" + value }
