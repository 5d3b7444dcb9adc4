package env

import "testing"

func TestCapResult(t *testing.T) {
	for _, tc := range []struct {
		fen          string
		margin       int
		white, black int
		want         Result
	}{
		{StartFEN, 3, 39, 39, Draw},
		{"4k3/8/8/8/8/8/8/R3K3 b - - 0 1", 3, 5, 0, WhiteWins},
		{"4k3/8/8/8/8/8/8/R3K3 b - - 0 1", 0, 5, 0, Draw},
		{"4k3/8/8/8/8/8/8/R3K3 b - - 0 1", 6, 5, 0, Draw},
		{"q3k3/8/8/8/8/8/8/|R|N2K3 w - - 0 1", 1, 8, 9, BlackWins},
		{"q3k3/8/8/8/8/8/8/|R|N2K3 w - - 0 1", 2, 8, 9, Draw},
		{"q3k3/p7/8/8/8/8/8/|R|N2K3 w - - 0 1", 2, 8, 10, BlackWins},
	} {
		p, err := ParseFEN(tc.fen, Alice)
		if err != nil {
			t.Fatal(err)
		}
		if w, b := p.Material(White), p.Material(Black); w != tc.white || b != tc.black {
			t.Errorf("%s: material %d/%d, want %d/%d", tc.fen, w, b, tc.white, tc.black)
		}
		if got := p.CapResult(tc.margin); got != tc.want {
			t.Errorf("%s margin %d: %v, want %v", tc.fen, tc.margin, got, tc.want)
		}
		want := tc.white - tc.black
		if p.SideToMove() == Black {
			want = -want
		}
		if bal := p.MaterialBalance(); bal != want {
			t.Errorf("%s: balance %d for the side to move", tc.fen, bal)
		}
	}
}
