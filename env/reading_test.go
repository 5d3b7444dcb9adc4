package env

import (
	"strings"
	"testing"
)

// TestEnPassantFieldIsReadOnItsBoard: alice-ep's passed square is a square
// of X, the board the pawn stepped on; a field that allows no capture is
// dropped, as the move generator never records one.
func TestEnPassantFieldIsReadOnItsBoard(t *testing.T) {
	v, err := VariantByName("alice-ep")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, fen string
		wantEP    string // the FEN's en-passant field as written back
		wantErr   string
	}{
		// h6 is empty on A, where the pawn passed it, but holds a knight
		// on B, so no capture can land there.
		{"passed square taken on Y", "3qkb1r/4pp2/|n2|p2|p|n/|p|B|p1|P2|p/1p|P|Q4/7b/PPNP1PPP/R1B|K2NR w k h6 0 16", "-", ""},
		{"capture possible", "4k3/2p5/8/3P|pP2/8/8/8/4K3 w - e6 0 2", "e6", ""},
		{"no pawn to take", "4k3/8/8/4|p3/8/8/8/4K3 w - e6 0 2", "-", ""},
		{"passed square taken on X", "4k3/8/7n/6P|p/8/8/8/4K3 w - h6 0 2", "", "en-passant square h6 is occupied on board A, where the black pawn now on h5 of board B passed it"},
		{"no pawn double-stepped", "4k3/8/8/6P1/8/8/8/4K3 w - h6 0 2", "", "has no black pawn on h5"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pos, err := ParseFEN(tt.fen, v)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if f := strings.Fields(pos.FEN()); f[3] != tt.wantEP {
				t.Errorf("written back as %s, want en-passant field %s", pos.FEN(), tt.wantEP)
			}
			// A dropped field reads as the position without it.
			if tt.wantEP == "-" {
				bare := strings.Fields(tt.fen)
				bare[3] = "-"
				q, err := ParseFEN(strings.Join(bare, " "), v)
				if err != nil {
					t.Fatal(err)
				}
				if q.Hash() != pos.Hash() {
					t.Errorf("hash differs from the position without the field")
				}
			}
		})
	}
}

// TestPGNBadTagNamesItsLine: an error in a [FEN] or [Variant] value is
// reported at the tag's line, not at the first move's.
func TestPGNBadTagNamesItsLine(t *testing.T) {
	tests := []struct{ pgn, want string }{
		{"[FEN \"bad fen\"]\n[Event \"x\"]\n\n1. e4 *\n", "(line 1)"},
		{"[Event \"x\"]\n[Variant \"Crazy Alice\"]\n\n1. e4 *\n", "(line 2)"},
	}
	for _, tt := range tests {
		_, err := ReadPGN(strings.NewReader(tt.pgn), Alice)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: error %v, want %s", tt.pgn, err, tt.want)
		}
	}
}
