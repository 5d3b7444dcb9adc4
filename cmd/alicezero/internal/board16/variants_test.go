package board16

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/alicezero/alicezero/env"
)

// xboardVariants are the variants XBoard can show: all but alice-3.
func xboardVariants(t *testing.T) []env.Variant {
	t.Helper()
	var vs []env.Variant
	for _, v := range env.Variants() {
		if _, err := LayoutOf(v); err == nil {
			vs = append(vs, v)
		}
	}
	if len(vs) != len(env.Variants())-1 {
		t.Fatalf("XBoard shows %d variants, want all but alice-3", len(vs))
	}
	return vs
}

func TestLayoutOf(t *testing.T) {
	for _, tt := range []struct {
		v        env.Variant
		geometry string
	}{{env.Alice, "16x8+0_fairy"}, {env.AliceStone, "16x8+0_fairy"}, {env.AliceMini, "8x8+0_fairy"}} {
		l, err := LayoutOf(tt.v)
		if err != nil || l.Geometry() != tt.geometry {
			t.Errorf("%s: %v %v", tt.v.Name, l.Geometry(), err)
		}
	}
	if _, err := LayoutOf(env.Alice3); err == nil || !strings.Contains(err.Error(), "24 files") {
		t.Errorf("alice-3: %v", err)
	}
	l, _ := LayoutOf(env.AliceMini)
	if q := l.At(env.SquareAt(2, 0), env.BoardB); q.String() != "g1" {
		t.Errorf("c1 of board B in alice-mini is %s", q)
	}
	if _, _, ok := l.Split(Square{8, 0}); ok {
		t.Error("i1 is on alice-mini's 8x8 board")
	}
}

// In random games of every variant XBoard shows, every position survives a
// round trip through XBoard's FEN, and every legal move through both move
// forms, no two legal moves sharing a text: XBoard can name each move.
func TestEveryVariantRoundTrips(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 34))
	for _, v := range xboardVariants(t) {
		for game := range 6 {
			p := env.NewPosition(v)
			for ply := 0; ply < 80; ply++ {
				fen := p.FEN()
				back, err := ParseFEN(FEN(p), v)
				if err != nil || back != fen {
					t.Fatalf("%s game %d: FEN %s → %s → %s (%v)", v.Name, game, fen, FEN(p), back, err)
				}
				var ml env.MoveList
				p.LegalMoves(&ml)
				if ml.N == 0 {
					break
				}
				seen := map[string]env.Move{}
				for _, m := range ml.Slice() {
					one := Move(p, m)
					if other, dup := seen[one]; dup {
						t.Fatalf("%s %s: %v and %v are both %s", v.Name, fen, other, m, one)
					}
					seen[one] = m
					legs := MoveLegs(p, m)
					for _, s := range []string{one, strings.Join(legs, "")} {
						if got, err := ParseMove(p, s); err != nil || got != m {
							t.Fatalf("%s %s: %v as %s reads back as %v (%v)", v.Name, fen, m, s, got, err)
						}
					}
					if len(legs) == 2 != TwoLegs(p, m) {
						t.Fatalf("%s %s: %v in %d legs", v.Name, fen, m, len(legs))
					}
				}
				p.MakeMove(ml.Moves[rng.IntN(ml.N)])
			}
		}
	}
}

// Each special kind of move, as XBoard is sent it.
func TestSpecialMoves(t *testing.T) {
	for _, tt := range []struct {
		name string
		v    env.Variant
		fen  string // "" for the variant's start
		uci  string
		legs string // the legs, joined by a space
		fen2 string // XBoard's FEN after the move
	}{
		{"alice-black-b start", env.AliceBlackB, "", "e2e4", "e2m4",
			"8rnbqkbnr/8pppppppp/16/16/12P3/16/PPPP1PPP8/RNBQKBNR8 b KQkq - 0 1"},
		{"alice-mini: a pawn on 4 files", env.AliceMini, "", "b3b4", "b3f4",
			"rqkr4/nbbn4/pppp4/8/5P2/P1PP4/NBBN4/RQKR4 b - - 0 1"},
		{"alice-mini: a capture in two legs", env.AliceMini, "rqkr/nbbn/p1pp/1p2/P3/1PPP/NBBN/RQKR w - - 0 1", "a4b5", "a4b5, b5f5",
			""},
		{"alice-null: a pawn's null move", env.AliceNull, "", "e2e2", "e2m2",
			"rnbqkbnr8/pppppppp8/16/16/16/16/PPPP1PPP4P3/RNBQKBNR8 b KQkq - 0 1"},
		{"alice-null: a knight's null move back", env.AliceNull, "4k3/8/8/8/8/8/8/|N3K3 w - - 0 1", "a1a1", "i1a1",
			"4k11/16/16/16/16/16/16/N3K11 b - - 1 1"},
		{"alice-ep: en passant in one leg", env.AliceEP, "4k3/8/8/3|pP3/8/8/8/4K3 w - d6 0 1", "e5d6", "e5l6",
			"4k11/16/11P4/16/16/16/16/4K11 b - - 0 1"},
		{"alice-optional-transfer: a blocked rook stays", env.AliceOptionalTransfer, "4k3/8/8/8/|p7/8/8/R3K3 w - - 0 1", "a1a4", "a1a4",
			"4k11/16/16/16/R7p7/16/16/4K11 b - - 1 1"},
		{"alice-optional-transfer: a capture that stays", env.AliceOptionalTransfer, "4k3/8/8/8/[p|P]7/8/8/R3K3 w - - 0 1", "a1a4", "a1a4",
			"4k11/16/16/16/R7P7/16/16/4K11 b - - 0 1"},
		{"alice-stone: a move that stays", env.AliceStone, "", "e2e4/a", "e2e4",
			"8rnbqkbnr/8pppppppp/16/16/4P11/16/PPPP1PPP8/RNBQKBNR8 b KQkq - 0 1"},
		{"alice-stone: a move that transfers", env.AliceStone, "", "e2e4", "e2m4",
			"8rnbqkbnr/8pppppppp/16/16/12P3/16/PPPP1PPP8/RNBQKBNR8 b KQkq - 0 1"},
		{"alice-stone: a null capture", env.AliceStone, "4|k3/8/8/8/8/8/8/3[Q|n]K3 w - - 0 1", "d1d1", "d1l1",
			"12k3/16/16/16/16/16/16/4K6Q4 b - - 0 1"},
		{"alice-stone: a capture that stays", env.AliceStone, "4|k3/p7/8/8/8/8/8/R3K3 w - - 0 1", "a1a7/a", "a1a7",
			"12k3/R15/16/16/16/16/16/4K11 b - - 0 1"},
		{"alice-stone: a capture that transfers", env.AliceStone, "4|k3/p7/8/8/8/8/8/R3K3 w - - 0 1", "a1a7", "a1a7, a7i7",
			"12k3/8R7/16/16/16/16/16/4K11 b - - 0 1"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			fen := tt.fen
			if fen == "" {
				fen = tt.v.StartFEN()
			}
			p, err := env.ParseFEN(fen, tt.v)
			if err != nil {
				t.Fatal(err)
			}
			m, err := p.ParseUCI(tt.uci)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(MoveLegs(p, m), " "); got != tt.legs {
				t.Errorf("%s as %q, want %q", tt.uci, got, tt.legs)
			}
			if got, err := ParseMove(p, strings.ReplaceAll(tt.legs, " ", "")); err != nil || got != m {
				t.Errorf("%s reads back as %v (%v)", tt.legs, got, err)
			}
			p.MakeMove(m)
			if tt.fen2 != "" && FEN(p) != tt.fen2 {
				t.Errorf("after %s: %s, want %s", tt.uci, FEN(p), tt.fen2)
			}
			if back, err := ParseFEN(FEN(p), tt.v); err != nil || back != p.FEN() {
				t.Errorf("FEN %s reads back as %s (%v)", FEN(p), back, err)
			}
		})
	}
}

// Two men on one square of different boards are two XBoard squares; a
// variant that never allows it refuses such a FEN.
func TestParseFENSharedSquares(t *testing.T) {
	f16 := "4k11/16/16/16/R7p7/16/16/4K11 w - - 0 1"
	if got, err := ParseFEN(f16, env.AliceOptionalTransfer); err != nil || got != "4k3/8/8/8/[R|p]7/8/8/4K3 w - - 0 1" {
		t.Errorf("optional transfer: %q %v", got, err)
	}
	if got, err := ParseFEN(f16, env.Alice); err == nil {
		t.Errorf("alice: %q", got)
	}
	// alice-mini: 8-file ranks are XBoard's, 4-file ranks the project's.
	if got, err := ParseFEN("rqkr4/nbbn4/pppp4/8/8/PPPP4/NBBN4/RQKR4 w - - 0 1", env.AliceMini); err != nil || got != env.StartFENMini {
		t.Errorf("alice-mini: %q %v", got, err)
	}
	if got, err := ParseFEN(env.StartFENMini, env.AliceMini); err != nil || got != env.StartFENMini {
		t.Errorf("alice-mini's own FEN: %q %v", got, err)
	}
	// Board B's castling rooks, as XBoard may name them, in alice-black-b.
	if got, err := ParseFEN("8r3k2r/16/16/16/16/16/16/R3K2R8 w HApi - 0 1", env.AliceBlackB); err != nil || got != "|r3|k2|r/8/8/8/8/8/8/R3K2R w KQkq - 0 1" {
		t.Errorf("alice-black-b castling: %q %v", got, err)
	}
	if _, err := ParseFEN(env.StartFEN, env.Alice3); err == nil {
		t.Error("alice-3 FEN accepted")
	}
}
