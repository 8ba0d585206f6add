package browser

import "testing"

// editorOrderNote is the note beside the script on the order of pairs and
// next (tableorder.js).
const editorOrderNote = "[data-testid=editor-order-note]"

// TestEditorNotesPairsOrder: the lesson's scripts get no note; a script the
// learner writes with pairs gets one, next to the script, saying that the
// order is Lua's to choose and how the note was found; taking pairs out
// takes the note away.
func TestEditorNotesPairsOrder(t *testing.T) {
	tb := openReady(t, "/")
	ed := tb.in(editorSection)

	ed.wantNoText(editorOrderNote, "pairs or next")
	ed.choose("A new script")
	ed.fill("Script", "local t = {}\nt.a = 1\nt.b = 2\nlocal out = {}\nfor k in pairs(t) do out[#out + 1] = k end\nreturn out")
	ed.wantText(editorOrderNote, "walks a table with pairs or next", "Found by reading the script's text")
	ed.fill("Script", "for i, v in ipairs(KEYS) do end\nreturn 1")
	ed.wantNoText(editorOrderNote, "pairs or next")
}
