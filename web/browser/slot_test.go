package browser

import "testing"

// TestRoundTripShowsTheQueuesSlot opens the page on the emails queue, as a
// course author links it, and reads the round trip's slot line: the four
// keys of emails all in slot 3728 through the {emails} tag, and the same
// keys without the tag in two slots, which a cluster refuses with
// CROSSSLOT. The console's CLUSTER KEYSLOT gives the same slot.
func TestRoundTripShowsTheQueuesSlot(t *testing.T) {
	tb := openReady(t, "/?queue=emails")
	rt := tb.in("#roundtrip")
	rt.wantText("[data-testid=slot-line]",
		"All 4 keys hash to slot 3728 through the {emails} tag: emq:{emails}:job:…, emq:{emails}:pending, emq:{emails}:active and emq:{emails}:paused.",
		"Without the tag, emq:emails:pending would hash to slot 7992 and emq:emails:active to slot 7426: on a Redis Cluster, a script that declares both is refused with CROSSSLOT.")
	rt.wantAttrs("[data-testid=slot-line]", "data-slot", "3728")

	c := tb.in("#console")
	typeLine(c, "CLUSTER KEYSLOT emq:{emails}:pending")
	wantOut(c, "(integer) 3728")
}
