package arena

import (
	"testing"

	"github.com/alicezero/alicezero/env"
)

// TestOpeningsAndStartposOfMini: the built-in openings of alice-mini start
// from its own start position, and a UCI engine is told "startpos" for it
// (UCI_Variant says which start that is), a FEN for any other set-up.
func TestOpeningsAndStartposOfMini(t *testing.T) {
	ops, err := BuiltinOpenings(4, env.AliceMini)
	if err != nil || len(ops) != 4 {
		t.Fatalf("%d openings, %v", len(ops), err)
	}
	for _, o := range ops {
		if o.FEN != env.StartFENMini {
			t.Fatalf("%s starts from %s", o.Name, o.FEN)
		}
		if _, err := o.Position(env.AliceMini); err != nil {
			t.Fatalf("%s: %v", o.Name, err)
		}
	}
	p := env.NewPosition(env.AliceMini)
	if _, err := p.PlayUCI([]string{"b3b4"}); err != nil {
		t.Fatal(err)
	}
	if got := positionCommand(p); got != "position startpos moves b3b4" {
		t.Errorf("mini from the start: %q", got)
	}
	q, err := env.ParseFEN("rqkr/nbbn/pppp/4/1|P2/P1PP/NBBN/RQKR b - - 0 1", env.AliceMini)
	if err != nil {
		t.Fatal(err)
	}
	if got := positionCommand(q); got != "position fen rqkr/nbbn/pppp/4/1|P2/P1PP/NBBN/RQKR b - - 0 1" {
		t.Errorf("mini set up: %q", got)
	}
}
