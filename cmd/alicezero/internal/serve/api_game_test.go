package serve

import (
	"net/http"
	"strings"
	"testing"

	"github.com/alicezero/alicezero/env"
)

func TestGameStartPosition(t *testing.T) {
	c := newClient(t, newTestServer(t, Options{}, nil))
	var g gameJSON
	c.call("GET", "/api/game", nil, http.StatusOK, &g)
	if g.Side != "white" || g.Ply != 0 || g.Status != "ongoing" || g.Result != "*" || g.LastMove != nil {
		t.Errorf("start: side %s ply %d status %s result %s last %v", g.Side, g.Ply, g.Status, g.Result, g.LastMove)
	}
	if len(g.Legal) != 20 {
		t.Errorf("start: %d legal moves, want 20", len(g.Legal))
	}
	if g.Boards.A[:8] != "RNBQKBNR" || g.Boards.A[56:] != "rnbqkbnr" || strings.Trim(g.Boards.B, ".") != "" {
		t.Errorf("start boards: A %q B %q", g.Boards.A, g.Boards.B)
	}
	for _, m := range g.Legal {
		if m.FromBoard != "A" || m.ToBoard != "B" {
			t.Errorf("%s: from board %s to board %s, want A to B", m.UCI, m.FromBoard, m.ToBoard)
		}
	}
}

func TestGameMoveUndoNew(t *testing.T) {
	c := newClient(t, newTestServer(t, Options{}, nil))
	var g gameJSON
	c.call("POST", "/api/game/move", map[string]any{"move": "e2e4"}, http.StatusOK, &g)
	e4 := 28 // a1 = 0
	if g.Side != "black" || g.Boards.B[e4] != 'P' || g.Boards.A[e4] != '.' || g.Boards.A[12] != '.' {
		t.Fatalf("after e2e4: side %s, B %q, A %q", g.Side, g.Boards.B, g.Boards.A)
	}
	if lm := g.LastMove; lm == nil || lm.SAN != "e4" || lm.From != "e2" || lm.To != "e4" || lm.FromBoard != "A" || lm.ToBoard != "B" {
		t.Fatalf("last move %+v", g.LastMove)
	}
	// SAN works too, and the history lists both moves.
	c.call("POST", "/api/game/move", map[string]any{"move": "Nf6", "version": g.Version}, http.StatusOK, &g)
	if len(g.Moves) != 2 || g.Moves[0].SAN != "e4" || g.Moves[1].SAN != "Nf6" || g.Moves[1].Piece != "n" {
		t.Fatalf("moves %+v", g.Moves)
	}
	// A move for an older version of the game is refused.
	c.fails("POST", "/api/game/move", map[string]any{"move": "d4", "version": g.Version - 1}, http.StatusConflict, "changed")
	// Illegal and unreadable moves are 400s that say why.
	c.fails("POST", "/api/game/move", map[string]any{"move": "e1e8"}, http.StatusBadRequest, "e1e8")
	c.fails("POST", "/api/game/move", map[string]any{"move": "Qxx9"}, http.StatusBadRequest)
	c.fails("POST", "/api/game/move", map[string]any{"move": ""}, http.StatusBadRequest, "no move")
	c.fails("POST", "/api/game/move", map[string]any{"move": 42}, http.StatusBadRequest, `"move"`)

	c.call("POST", "/api/game/undo", map[string]any{}, http.StatusOK, &g)
	if g.Ply != 1 || g.Side != "black" {
		t.Fatalf("after undo: ply %d side %s", g.Ply, g.Side)
	}
	c.call("POST", "/api/game/undo", map[string]any{"plies": 5}, http.StatusOK, &g)
	if g.Ply != 0 {
		t.Fatalf("after undo of 5: ply %d", g.Ply)
	}
	c.fails("POST", "/api/game/undo", map[string]any{"plies": -1}, http.StatusBadRequest, "plies")

	fen := "4k3/8/8/8/8/8/8/4|K2R w - - 0 1"
	c.call("POST", "/api/game/new", map[string]any{"fen": fen}, http.StatusOK, &g)
	if g.FEN != fen || g.StartFEN != fen || g.Boards.B[4] != 'K' {
		t.Fatalf("new from FEN: fen %q start %q B %q", g.FEN, g.StartFEN, g.Boards.B)
	}
	c.fails("POST", "/api/game/new", map[string]any{"fen": "8/8 w"}, http.StatusBadRequest, "fen")
	c.fails("POST", "/api/game/new", map[string]any{"variant": "crazyhouse"}, http.StatusBadRequest, "variant")
	c.call("POST", "/api/game/new", map[string]any{"variant": "alice-ep"}, http.StatusOK, &g)
	if g.Variant != "alice-ep" || g.Ply != 0 {
		t.Fatalf("new alice-ep: %s ply %d", g.Variant, g.Ply)
	}
}

func TestGameCheckmateEndsMoves(t *testing.T) {
	c := newClient(t, newTestServer(t, Options{}, nil))
	var g gameJSON
	// A mate in three: the bishop goes from board B back to board A,
	// where it checks the king.
	c.call("POST", "/api/game/load", map[string]any{"pgn": "1. e3 d6 2. Bc4 c5 3. Bb5# 1-0\n"}, http.StatusOK, &g)
	if g.Status != "checkmate" || g.Result != "1-0" || len(g.Legal) != 0 || !g.Check {
		t.Fatalf("after Bb5#: status %s result %s, %d legal moves, check %v", g.Status, g.Result, len(g.Legal), g.Check)
	}
	if g.LastMove.SAN != "Bb5#" || g.LastMove.FromBoard != "B" || g.LastMove.ToBoard != "A" {
		t.Errorf("last move %+v", g.LastMove)
	}
	c.fails("POST", "/api/game/move", map[string]any{"move": "a6"}, http.StatusBadRequest, "over")
	c.fails("POST", "/api/search", map[string]any{"kind": "play"}, http.StatusBadRequest, "over")
}

func TestGameLoadAndPGN(t *testing.T) {
	c := newClient(t, newTestServer(t, Options{}, nil))
	pgn := `[Event "Test match"]
[White "Alice"]
[Black "Bob"]
[Result "*"]

1. e4 d5 2. Nf3 Nc6 *

[Event "Second"]
[Result "1-0"]

1. d4 1-0
`
	var g gameJSON
	c.call("POST", "/api/game/load", map[string]any{"pgn": pgn}, http.StatusOK, &g)
	if g.Ply != 4 || g.Moves[2].SAN != "Nf3" {
		t.Fatalf("loaded game: ply %d moves %+v", g.Ply, g.Moves)
	}
	c.call("POST", "/api/game/load", map[string]any{"pgn": pgn, "game": 1}, http.StatusOK, &g)
	if g.Ply != 1 || g.Moves[0].SAN != "d4" {
		t.Fatalf("second game: ply %d", g.Ply)
	}
	c.call("POST", "/api/game/load", map[string]any{"pgn": pgn, "ply": 2}, http.StatusOK, &g)
	if g.Ply != 2 {
		t.Fatalf("first game to ply 2: ply %d", g.Ply)
	}
	var out pgnResponse
	c.call("GET", "/api/game/pgn", nil, http.StatusOK, &out)
	for _, want := range []string{`[Event "Test match"]`, `[White "Alice"]`, `[Variant "Alice"]`, "1. e4 d5 *"} {
		if !strings.Contains(out.PGN, want) {
			t.Errorf("PGN lacks %q:\n%s", want, out.PGN)
		}
	}
	if out.FEN != g.FEN {
		t.Errorf("PGN answer's FEN %q, game's %q", out.FEN, g.FEN)
	}
	// The FEN of a position loads with moves after it.
	c.call("POST", "/api/game/load", map[string]any{"fen": g.FEN, "moves": []string{"Nf3"}}, http.StatusOK, &g)
	if g.Ply != 1 || g.LastMove.SAN != "Nf3" {
		t.Fatalf("FEN and moves: ply %d last %+v", g.Ply, g.LastMove)
	}

	for _, tc := range []struct {
		body any
		frag string
	}{
		{map[string]any{}, "nothing to load"},
		{map[string]any{"pgn": pgn, "fen": g.FEN}, "either"},
		{map[string]any{"pgn": pgn, "game": 2}, "holds 2"},
		{map[string]any{"pgn": pgn, "game": -1}, "game must"},
		{map[string]any{"pgn": pgn, "ply": 9}, "ply must"},
		{map[string]any{"pgn": "1. e4 e4 *"}, "pgn"},
		{map[string]any{"pgn": "   "}, "no game"},
		{map[string]any{"fen": "startpos", "moves": []string{"e4", "e5", "Ke2", "Qh4", "xx"}}, "move 5"},
	} {
		c.fails("POST", "/api/game/load", tc.body, http.StatusBadRequest, tc.frag)
	}
}

func TestLegalForPiece(t *testing.T) {
	c := newClient(t, newTestServer(t, Options{}, nil))
	var lr legalResponse
	c.call("GET", "/api/game/legal?from=g1", nil, http.StatusOK, &lr)
	if lr.Board != "A" || lr.Piece != "N" || len(lr.Moves) != 2 {
		t.Fatalf("g1: %+v", lr)
	}
	for _, m := range lr.Moves {
		if m.ToBoard != "B" || (m.To != "f3" && m.To != "h3") {
			t.Errorf("knight move %+v", m)
		}
	}
	lr = legalResponse{}
	c.call("GET", "/api/game/legal?from=e4", nil, http.StatusOK, &lr)
	if len(lr.Moves) != 0 || lr.Piece != "" {
		t.Errorf("empty square: %+v", lr)
	}
	c.call("GET", "/api/game/legal", nil, http.StatusOK, &lr)
	if len(lr.Moves) != 20 {
		t.Errorf("all moves: %d", len(lr.Moves))
	}
	c.fails("GET", "/api/game/legal?from=z9", nil, http.StatusBadRequest, "z9")

	// The stateless form: a knight on board B goes back to A.
	var pr positionResponse
	c.call("POST", "/api/position", map[string]any{"moves": []string{"Nf3", "Nf6"}, "from": "f3"}, http.StatusOK, &pr)
	if pr.Piece == nil || pr.Piece.Board != "B" || len(pr.Piece.Moves) == 0 {
		t.Fatalf("knight on f3: %+v", pr.Piece)
	}
	for _, m := range pr.Piece.Moves {
		if m.FromBoard != "B" || m.ToBoard != "A" {
			t.Errorf("knight from B: %+v", m)
		}
	}
	if pr.LastMove == nil || pr.LastMove.SAN != "Nf6" {
		t.Errorf("last move %+v", pr.LastMove)
	}
	c.fails("POST", "/api/position", map[string]any{"from": "i9"}, http.StatusBadRequest, "i9")
	c.fails("POST", "/api/position", map[string]any{"moves": []string{"e5"}}, http.StatusBadRequest, "move 1")
}

func TestPGNParse(t *testing.T) {
	c := newClient(t, newTestServer(t, Options{}, nil))
	pgn := "[Event \"A\"]\n[White \"W\"]\n[Black \"B\"]\n[Result \"1/2-1/2\"]\n\n1. e4 e5 2. Nf3 1/2-1/2\n\n" +
		"[Event \"Broken\"]\n[Result \"*\"]\n\n1. e4 e4 *\n\n" +
		"[Event \"C\"]\n[Result \"*\"]\n\n1. d4 *\n"
	var res pgnParseResponse
	c.call("POST", "/api/pgn", map[string]any{"pgn": pgn}, http.StatusOK, &res)
	if len(res.Games) != 3 || res.Games[0].White != "W" || res.Games[0].Plies != 3 || res.Games[0].Result != "1/2-1/2" {
		t.Fatalf("games: %+v", res.Games)
	}
	if res.Games[1].Error == "" || res.Games[2].Error != "" {
		t.Errorf("errors: %q, %q", res.Games[1].Error, res.Games[2].Error)
	}
	g := res.Game
	if g == nil || len(g.Moves) != 3 || len(g.Positions) != 4 || g.Positions[0].LastMove != nil || g.Positions[3].LastMove.SAN != "Nf3" {
		t.Fatalf("game 0: %+v", g)
	}
	if g.Positions[1].Boards.B[28] != 'P' || g.Positions[1].Side != "black" {
		t.Errorf("after e4: %+v", g.Positions[1])
	}
	c.call("POST", "/api/pgn", map[string]any{"pgn": pgn, "game": 1}, http.StatusOK, &res)
	if res.Game.Error == "" || len(res.Game.Moves) != 1 {
		t.Errorf("broken game: error %q, %d moves", res.Game.Error, len(res.Game.Moves))
	}
	c.fails("POST", "/api/pgn", map[string]any{"pgn": pgn, "game": 3}, http.StatusBadRequest, "holds 3")
	c.fails("POST", "/api/pgn", map[string]any{"pgn": ""}, http.StatusBadRequest, "empty")
	c.fails("POST", "/api/pgn", map[string]any{"pgn": pgn, "variant": "xiangqi"}, http.StatusBadRequest, "variant")
}

// A man dropped where it cannot go is told why.
func TestGameLegalSaysWhyIllegal(t *testing.T) {
	c := newClient(t, newTestServer(t, Options{}, nil))
	var g gameJSON
	c.call("POST", "/api/game/load", map[string]any{"fen": env.StartFEN, "moves": []string{"Nf3", "a6"}}, http.StatusOK, &g)
	for _, tc := range []struct {
		query, want string
	}{
		{"from=f2&board=A&to=f3", "that square is taken on board B"},
		{"from=f2&board=A&to=f4", ""}, // legal: nothing to say
		{"from=b1&board=A&to=b4", "the knight on b1 of board A cannot go to b4"},
		{"from=a6&board=B&to=a5", "no man of yours"},
		{"from=e1&board=A&to=e1", "the king on e1 of board A has no legal move"},
	} {
		var res legalResponse
		c.call("GET", "/api/game/legal?"+tc.query, nil, http.StatusOK, &res)
		if tc.want == "" && res.Illegal != "" || !strings.Contains(res.Illegal, tc.want) {
			t.Errorf("%s: illegal %q, want %q", tc.query, res.Illegal, tc.want)
		}
	}
	c.call("POST", "/api/game/new", map[string]any{"fen": "4k3/8/8/8/8/8/4r3/R3K3 w - - 0 1"}, http.StatusOK, &g)
	var res legalResponse
	c.call("GET", "/api/game/legal?from=a1&board=A&to=a5", nil, http.StatusOK, &res)
	if !strings.Contains(res.Illegal, "your king is in check on A") {
		t.Errorf("in check: illegal %q", res.Illegal)
	}
	c.fails("GET", "/api/game/legal?from=a1&to=z9", nil, http.StatusBadRequest, "not a square")
}
