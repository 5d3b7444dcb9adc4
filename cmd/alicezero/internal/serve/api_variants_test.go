package serve

import (
	"net/http"
	"strings"
	"testing"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/mcts"
	"github.com/alicezero/alicezero/mcts/engine"
)

// variantPosition asks /api/position for a position of a variant.
func variantPosition(t *testing.T, c *client, body map[string]any) positionResponse {
	t.Helper()
	var pr positionResponse
	c.call("POST", "/api/position", body, http.StatusOK, &pr)
	return pr
}

// findMove returns the legal move written uci, failing the test without it.
func findMove(t *testing.T, legal []moveJSON, uci string) moveJSON {
	t.Helper()
	for _, m := range legal {
		if m.UCI == uci {
			return m
		}
	}
	t.Fatalf("no legal move %q", uci)
	return moveJSON{}
}

// square is a square's index in a board string.
func square(name string) int {
	sq, _ := env.ParseSquare(name)
	return int(sq)
}

func TestVariantBoardsAlice3(t *testing.T) {
	c := newClient(t, newTestServer(t, Options{}, nil))
	pr := variantPosition(t, c, map[string]any{"variant": "alice-3", "moves": []string{"e2e4/c"}})
	if pr.BoardCount != 3 || pr.Files != 8 {
		t.Errorf("shape %+v, want 3 boards of 8 files", pr.shapeJSON)
	}
	e4 := square("e4")
	if pr.Boards.C[e4] != 'P' || pr.Boards.B[e4] != '.' || pr.Boards.A[square("e2")] != '.' || len(pr.Boards.C) != 64 {
		t.Errorf("after e2e4/c: boards %+v", pr.Boards)
	}
	if lm := pr.LastMove; lm == nil || lm.UCI != "e2e4/c" || lm.FromBoard != "A" || lm.ToBoard != "C" {
		t.Errorf("last move %+v", pr.LastMove)
	}
	// Every move names its chosen board, and both boards are offered.
	for _, m := range pr.Legal {
		if !strings.HasSuffix(m.UCI, "/"+strings.ToLower(m.ToBoard)) || m.ToBoard == m.FromBoard {
			t.Errorf("%+v: want a move to another board, written with its suffix", m)
		}
	}
	if b, c := findMove(t, pr.Legal, "a7a6/b"), findMove(t, pr.Legal, "a7a6/c"); b.ToBoard != "B" || c.ToBoard != "C" {
		t.Errorf("a7a6 to B %+v, to C %+v", b, c)
	}
}

func TestVariantSharedSquareAlice3(t *testing.T) {
	c := newClient(t, newTestServer(t, Options{}, nil))
	// Three white rooks on a4, one on each board.
	fen := "4k3/8/8/8/[R|R||R]7/8/8/4K3 w - - 0 1"
	pr := variantPosition(t, c, map[string]any{"variant": "alice-3", "fen": fen, "from": "a4", "board": "B"})
	a4 := square("a4")
	if pr.Boards.A[a4] != 'R' || pr.Boards.B[a4] != 'R' || pr.Boards.C[a4] != 'R' {
		t.Errorf("a4 on the boards: %q %q %q, want a rook on each", pr.Boards.A[a4], pr.Boards.B[a4], pr.Boards.C[a4])
	}
	// The rook on B moves to A or C, written with its board in front.
	m := findMove(t, pr.Legal, "b:a4a5/c")
	if m.FromBoard != "B" || m.ToBoard != "C" || m.Piece != "R" {
		t.Errorf("b:a4a5/c: %+v", m)
	}
	if pr.Piece == nil || pr.Piece.Board != "B" || pr.Piece.Piece != "R" || len(pr.Piece.Moves) == 0 {
		t.Fatalf("the rook on a4 of B: %+v", pr.Piece)
	}
	for _, m := range pr.Piece.Moves {
		if m.FromBoard != "B" {
			t.Errorf("asked for a4 of board B, got %+v", m)
		}
	}
	c.fails("POST", "/api/position", map[string]any{"variant": "alice-3", "fen": fen, "from": "a4", "board": "D"}, http.StatusBadRequest, "board")
	c.fails("POST", "/api/position", map[string]any{"fen": "startpos", "from": "e2", "board": "C"}, http.StatusBadRequest, "board")
}

func TestVariantBoardsAliceStone(t *testing.T) {
	c := newClient(t, newTestServer(t, Options{}, nil))
	pr := variantPosition(t, c, map[string]any{"variant": "alice-stone", "moves": []string{"e2e4/a"}})
	e4 := square("e4")
	if pr.BoardCount != 2 || pr.Boards.A[e4] != 'P' || pr.Boards.B[square("e8")] != 'k' || pr.Boards.C != "" {
		t.Errorf("after e2e4/a: %+v %+v", pr.shapeJSON, pr.Boards)
	}
	if lm := pr.LastMove; lm == nil || lm.UCI != "e2e4/a" || lm.FromBoard != "A" || lm.ToBoard != "A" {
		t.Errorf("last move (a stay) %+v", pr.LastMove)
	}
	// Black's pawn may stay on B or transfer to A; its knight may pass to A.
	if stay, go_ := findMove(t, pr.Legal, "a7a6/b"), findMove(t, pr.Legal, "a7a6"); stay.ToBoard != "B" || go_.ToBoard != "A" || stay.FromBoard != "B" {
		t.Errorf("a7a6 staying %+v, transferring %+v", stay, go_)
	}
	if n := findMove(t, pr.Legal, "b8b8"); !n.Null || n.FromBoard != "B" || n.ToBoard != "A" || n.From != n.To || n.Capture {
		t.Errorf("the knight's null move %+v", n)
	}
	// A null move onto an enemy man on the other board takes it.
	fen := "4k3/8/8/8/3[R|n]4/8/8/4K3 w - - 0 1"
	pr = variantPosition(t, c, map[string]any{"variant": "alice-stone", "fen": fen})
	d4 := square("d4")
	if pr.Boards.A[d4] != 'R' || pr.Boards.B[d4] != 'n' {
		t.Errorf("d4: A %q B %q", pr.Boards.A[d4], pr.Boards.B[d4])
	}
	if m := findMove(t, pr.Legal, "d4d4"); !m.Null || !m.Capture || m.FromBoard != "A" || m.ToBoard != "B" {
		t.Errorf("the rook's null capture %+v", m)
	}
}

func TestVariantBoardsAliceNull(t *testing.T) {
	c := newClient(t, newTestServer(t, Options{}, nil))
	pr := variantPosition(t, c, map[string]any{"variant": "alice-null", "moves": []string{"g1g1"}})
	g1 := square("g1")
	if pr.Boards.A[g1] != '.' || pr.Boards.B[g1] != 'N' {
		t.Errorf("after g1g1: A %q B %q", pr.Boards.A[g1], pr.Boards.B[g1])
	}
	if lm := pr.LastMove; lm == nil || !lm.Null || lm.From != "g1" || lm.To != "g1" || lm.FromBoard != "A" || lm.ToBoard != "B" {
		t.Errorf("last move (null) %+v", pr.LastMove)
	}
	if m := findMove(t, pr.Legal, "e7e7"); !m.Null || m.ToBoard != "B" || m.Piece != "p" {
		t.Errorf("a pawn's null move %+v", m)
	}
	// The board of a man is implied: no move needs a prefix or suffix.
	for _, m := range pr.Legal {
		if strings.ContainsAny(m.UCI, ":/") {
			t.Errorf("%s: alice-null writes plain UCI", m.UCI)
		}
	}
}

func TestVariantShapeAliceMini(t *testing.T) {
	c := newClient(t, newTestServer(t, Options{}, nil))
	pr := variantPosition(t, c, map[string]any{"variant": "alice-mini"})
	if pr.BoardCount != 2 || pr.Files != 4 || pr.Boards.A[:4] != "RQKR" || pr.Boards.A[4:8] != "...." {
		t.Errorf("alice-mini: %+v, A %q", pr.shapeJSON, pr.Boards.A)
	}
}

func TestVariantReviewAlice3(t *testing.T) {
	c := newClient(t, newTestServer(t, Options{}, nil))
	var res pgnParseResponse
	c.call("POST", "/api/pgn", map[string]any{"pgn": "1. e4/C e5/B *", "variant": "alice-3"}, http.StatusOK, &res)
	g := res.Game
	if g == nil || len(g.Moves) != 2 || len(g.Positions) != 3 {
		t.Fatalf("game %+v", g)
	}
	if g.Moves[0].UCI != "e2e4/c" || g.Moves[0].ToBoard != "C" || g.Moves[1].ToBoard != "B" {
		t.Errorf("moves %+v", g.Moves)
	}
	p := g.Positions[2]
	if p.BoardCount != 3 || p.Boards.C[square("e4")] != 'P' || p.Boards.B[square("e5")] != 'p' {
		t.Errorf("after 1. e4/C e5/B: %+v %+v", p.shapeJSON, p.Boards)
	}
}

func TestVariantInfoBoards(t *testing.T) {
	p, err := parsePosition("", "alice-3", nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := p.ParseMove("e2e4/c")
	if err != nil {
		t.Fatal(err)
	}
	js := describeInfo(p, mcts.Info{PV: []env.Move{m}, Children: []mcts.ChildStat{{Move: m, Visits: 3}}}, engine.SearchMCTS)
	if js.Best == nil || js.Best.UCI != "e2e4/c" || len(js.PV) != 1 || js.PV[0].UCI != "e2e4/c" {
		t.Errorf("best %+v, pv %+v", js.Best, js.PV)
	}
	if len(js.Top) != 1 || js.Top[0].ToBoard != "C" || js.Top[0].UCI != "e2e4/c" {
		t.Errorf("top %+v", js.Top)
	}
}

func TestVariantBoardsAliceOptionalTransfer(t *testing.T) {
	c := newClient(t, newTestServer(t, Options{}, nil))
	// f3 of B is taken: the knight's move there stays on A, and a white
	// man of board B shares g1 with it.
	fen := "4k3/8/8/8/8/5|p2/8/4K1[N|B]1 w - - 0 1"
	pr := variantPosition(t, c, map[string]any{"variant": "alice-optional-transfer", "fen": fen})
	g1 := square("g1")
	if pr.Boards.A[g1] != 'N' || pr.Boards.B[g1] != 'B' || pr.Boards.B[square("f3")] != 'p' {
		t.Errorf("boards %+v", pr.Boards)
	}
	if m := findMove(t, pr.Legal, "a:g1f3"); m.FromBoard != "A" || m.ToBoard != "A" || m.Piece != "N" {
		t.Errorf("the knight's blocked transfer %+v", m)
	}
	if m := findMove(t, pr.Legal, "b:g1h2"); m.FromBoard != "B" || m.ToBoard != "A" || m.Piece != "B" {
		t.Errorf("the bishop of board B %+v", m)
	}
}
