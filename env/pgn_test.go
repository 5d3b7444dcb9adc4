package env

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
)

func ucis(ms []Move) string {
	var sb strings.Builder
	for i, m := range ms {
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(m.UCI())
	}
	return sb.String()
}

func TestReadPGNSample(t *testing.T) {
	f, err := os.Open("testdata/sample.pgn")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	games, err := ReadPGN(f, AliceEP) // every game names its variant
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		moves  string
		result Result
		status Status
		tags   map[string]string
	}{
		{"e2e4 d7d5 f1e2 d5e4 e2b5", WhiteWins, Checkmate, map[string]string{"Round": "1", "Variant": "Alice"}},
		{"g1f3 e7e6 f3e5 f8c5 e5f7 c5g1", NoResult, Ongoing, map[string]string{
			"White": "Parton, V. R.", "Annotator": `The "Looking-Glass" \ club`, "Date": "2024.01.01"}},
		{"e8c8 e1g1 d8d2 f1f2 d2f2 g1f2", Draw, Ongoing, map[string]string{"SetUp": "1"}},
	}
	if len(games) != len(want) {
		t.Fatalf("read %d games, want %d", len(games), len(want))
	}
	for i, g := range games {
		w := want[i]
		if got := ucis(g.Moves); got != w.moves {
			t.Errorf("game %d: moves %s, want %s", i+1, got, w.moves)
		}
		if g.Result != w.result {
			t.Errorf("game %d: result %s, want %s", i+1, g.Result, w.result)
		}
		if g.Variant != Alice {
			t.Errorf("game %d: variant %q, want alice", i+1, g.Variant.Name)
		}
		for name, v := range w.tags {
			if got := g.Tag(name); got != v {
				t.Errorf("game %d: tag %s = %q, want %q", i+1, name, got, v)
			}
		}
		p, err := g.FinalPosition()
		if err != nil {
			t.Fatalf("game %d: %v", i+1, err)
		}
		if st := p.Status(); st != w.status {
			t.Errorf("game %d: final status %s, want %s", i+1, st, w.status)
		}
	}
	if got := games[2].StartFEN; got != "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 20" {
		t.Errorf("game 3 StartFEN %q", got)
	}
}

// TestReadPGNMovetext covers the lexical forms of movetext one at a time.
func TestReadPGNMovetext(t *testing.T) {
	for _, c := range []struct {
		name, text string
		games      []string // the moves of each game, in UCI
		results    []Result
	}{
		{"bare", "e4 d5 Be2 dxe4", []string{"e2e4 d7d5 f1e2 d5e4"}, []Result{NoResult}},
		{"numbers", "1. e4 d5 2. Be2 dxe4", []string{"e2e4 d7d5 f1e2 d5e4"}, []Result{NoResult}},
		{"glued numbers", "1.e4 d5 2.Be2 2...dxe4 *", []string{"e2e4 d7d5 f1e2 d5e4"}, []Result{NoResult}},
		{"spaced dots", "1 . e4 1 ... d5 2. Be2 ... dxe4 0-1", []string{"e2e4 d7d5 f1e2 d5e4"}, []Result{BlackWins}},
		{"result token", "1. e4 d5 1-0", []string{"e2e4 d7d5"}, []Result{WhiteWins}},
		{"result ends a game", "1. e4 1/2-1/2 1. Nf3 0-1", []string{"e2e4", "g1f3"}, []Result{Draw, BlackWins}},
		{"blank line ends a bare game", "1. e4 d5\n\n1. Nf3\n \t\n1. d4\n", []string{"e2e4 d7d5", "g1f3", "d2d4"}, []Result{NoResult, NoResult, NoResult}},
		{"newline is not a blank line", "1. e4\nd5\r\n2. Be2", []string{"e2e4 d7d5 f1e2"}, []Result{NoResult}},
		{"comments", "1. e4 {a {comment\n\n} d5 ; to the end\n2. Be2 {} dxe4", []string{"e2e4 d7d5 f1e2 d5e4"}, []Result{NoResult}},
		{"comment before a game", "{just a note}\n\n1. e4 *", []string{"e2e4"}, []Result{NoResult}},
		{"only comments", "{nothing}\n; here\n", nil, nil},
		{"empty", "", nil, nil},
		{"nested variations", "1. e4 (1. d4 (1. c4) d5 {)} ) d5 ((x)) 2. Be2 *", []string{"e2e4 d7d5 f1e2"}, []Result{NoResult}},
		{"variation across a blank line", "1. e4 (1. d4\n\nd5) d5 *", []string{"e2e4 d7d5"}, []Result{NoResult}},
		{"NAGs and marks", "1. e4 $1 d5 $14 2. Be2 !? dxe4 ?? *", []string{"e2e4 d7d5 f1e2 d5e4"}, []Result{NoResult}},
		{"escape lines", "%comment line\n1. e4\n% another\nd5 *", []string{"e2e4 d7d5"}, []Result{NoResult}},
		{"byte-order mark", "\xEF\xBB\xBF1. e4 *", []string{"e2e4"}, []Result{NoResult}},
		{"result tag only", "[Result \"1-0\"]\n\n1. e4", []string{"e2e4"}, []Result{WhiteWins}},
		{"token beats tag", "[Result \"1-0\"]\n\n1. e4 0-1", []string{"e2e4"}, []Result{BlackWins}},
		{"tags without result token", "[Event \"a\"]\n1. e4\n\n[Event \"b\"]\n1. d4\n\nd5", []string{"e2e4", "d2d4 d7d5"}, []Result{NoResult, NoResult}},
		{"tags on one line", "[Event \"a\"] [Round \"1\"] 1. e4 *", []string{"e2e4"}, []Result{NoResult}},
		{"tags only", "[Event \"a\"]", []string{""}, []Result{NoResult}},
		{"en passant", "[Variant \"alice-ep\"]\n1. e4 d5 2. e5 f5 3. exf6 e.p. *", []string{"e2e4 d7d5 e4e5 f7f5 e5f6"}, []Result{NoResult}},
		{"castling", "[FEN \"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1\"]\n1. O-O 0-0-0 *", []string{"e1g1 e8c8"}, []Result{NoResult}},
	} {
		t.Run(c.name, func(t *testing.T) {
			games, err := ReadPGN(strings.NewReader(c.text), Alice)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			var results []Result
			for _, g := range games {
				got = append(got, ucis(g.Moves))
				results = append(results, g.Result)
			}
			if !slices.Equal(got, c.games) || !slices.Equal(results, c.results) {
				t.Errorf("got games %q results %v, want %q %v", got, results, c.games, c.results)
			}
		})
	}
}

func TestReadPGNVariantTag(t *testing.T) {
	for _, c := range []struct {
		tag  string
		want Variant
		err  string
	}{
		{"Alice", Alice, ""},
		{"alice", Alice, ""},
		{"ALICE", Alice, ""},
		{"alice-ep", AliceEP, ""},
		{"Alice EP", AliceEP, ""},
		{"AliceEP", AliceEP, ""},
		{"", AliceEP, ""}, // the reader's default
		{"Standard", Variant{}, `"Standard"`},
		{"Atomic", Variant{}, `"Atomic"`},
	} {
		text := "[Variant \"" + c.tag + "\"]\n\n1. e4 *\n"
		games, err := ReadPGN(strings.NewReader(text), AliceEP)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) || !strings.Contains(err.Error(), "game 1") {
				t.Errorf("[Variant %q]: error %v, want one naming game 1 and %s", c.tag, err, c.err)
			}
			continue
		}
		if err != nil || len(games) != 1 || games[0].Variant != c.want {
			t.Errorf("[Variant %q]: %v, %v; want variant %s", c.tag, games, err, c.want.Name)
		}
	}
}

// TestReadPGNErrors checks that errors name the game, the ply and the move
// text, and that the reader goes on with the next game.
func TestReadPGNErrors(t *testing.T) {
	for _, c := range []struct {
		name, text string
		errGame    int
		errPly     int
		errMove    string
		errHas     string
		next       string // moves of the game after the bad one, if any
	}{
		{"illegal move", "1. e4 *\n\n1. Nf3 e6 2. Ne5 Bc5 3. Nxf7 Qd4 *\n\n1. d4 *", 2, 6, "Qd4", "illegal move", "d2d4"},
		{"illegal capture", "1. Nf3 e6 2. Ne5 Bc5 3. Nxf7 Bxf2+ 4. e4 *\n1. c4 *", 1, 6, "Bxf2+", "illegal move", "c2c4"},
		{"move after mate", "1. e4 d5 2. Be2 dxe4 3. Bb5# Kd7 1-0 [Event \"x\"] 1. e3 *", 1, 6, "Kd7", "illegal move: the game was already over after ply 5 (checkmate)", "e2e3"},
		{"move after threefold", "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. e4 *", 1, 9, "e4", "illegal move: the game was already over after ply 8 (threefold)", ""},
		{"long algebraic, illegal", "1. e2e4 d7d5 2. f1e3 *", 1, 3, "f1e3", "read as long algebraic", ""},
		{"SAN, illegal", "1. e4 d5 2. Bc5 *", 1, 3, "Bc5", "read as SAN", ""},
		{"ambiguous", "[FEN \"4k3/8/8/8/8/8/8/1N2K|N2 w - - 0 1\"]\n\n1. Nd2 *", 1, 1, "Nd2", "ambiguous", ""},
		{"wrong board", "1. e4/A *", 1, 1, "e4/A", "lands on board B, not A", ""},
		{"not SAN", "1. e4 e5 2. Ke2 hello *", 1, 4, "hello", "not SAN", ""},
		{"bad FEN", "[SetUp \"1\"]\n[FEN \"8/8/8 w - - 0 1\"]\n\n1. e4 *\n\n[Event \"next\"]\n1. e4 *", 1, 0, "", "[FEN] tag", "e2e4"},
		{"bad FEN, no moves", "[FEN \"nonsense\"]\n\n*", 1, 0, "", "bad FEN", ""},
		{"unknown variant", "[Variant \"Crazyhouse\"]\n1. e4 *", 1, 0, "", `"Crazyhouse"`, ""},
		{"unterminated comment", "1. e4 {no end", 1, 0, "", "unterminated comment", ""},
		{"unterminated variation", "1. e4 (1. d4 *", 1, 0, "", "unterminated variation", ""},
		{"unmatched paren", "1. e4 ) d5 *", 1, 0, "", "')' without", ""},
		{"bad tag", "[Event unquoted]\n1. e4 *", 1, 0, "", "quoted string", ""},
		{"unterminated tag string", "[Event \"abc\n1. e4 *", 1, 0, "", "unterminated string", ""},
		{"tag without bracket", "[Event \"abc\" \n1. e4 *", 1, 0, "", "missing ']'", ""},
		{"odd character", "1. e4 <d5> *", 1, 0, "", "unexpected character '<'", ""},
		{"long token", "1. e4 " + strings.Repeat("x", 1000) + " *", 1, 0, "", "too long", ""},
		{"lone e", "1. e4 e *", 1, 2, "e", "not SAN", ""},
		{"second game", "1. e4 *\n1. e5 *", 2, 1, "e5", "illegal move", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			pr := NewPGNReader(strings.NewReader(c.text), Alice)
			var err error
			for range 10 {
				if _, err = pr.Next(); err != nil {
					break
				}
			}
			var pe *PGNError
			if !errors.As(err, &pe) {
				t.Fatalf("got %v, want a *PGNError", err)
			}
			if pe.Game != c.errGame || pe.Ply != c.errPly || pe.Move != c.errMove || !strings.Contains(err.Error(), c.errHas) {
				t.Errorf("got game %d ply %d move %q: %q; want game %d ply %d move %q and %q",
					pe.Game, pe.Ply, pe.Move, err, c.errGame, c.errPly, c.errMove, c.errHas)
			}
			if pe.Line == 0 {
				t.Errorf("%q names no line", err)
			}
			if c.errMove != "" {
				want := `game ` + string(rune('0'+c.errGame)) + `, ply `
				if !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), `("`+c.errMove+`")`) {
					t.Errorf("%q: want it to start %q and quote the move", err, want)
				}
				var me *MoveError
				if !errors.As(err, &me) {
					t.Errorf("%q does not wrap the *MoveError", err)
				}
			}
			g, err := pr.Next()
			switch {
			case c.next == "" && err != io.EOF:
				t.Errorf("after the error: %v, %v; want io.EOF", g, err)
			case c.next != "" && (err != nil || ucis(g.Moves) != c.next):
				t.Errorf("after the error: %v, %v; want a game %s", g, err, c.next)
			}
			if _, err := pr.Next(); err != io.EOF {
				t.Errorf("at the end: %v, want io.EOF", err)
			}
		})
	}
}

func TestReadPGNPartialGame(t *testing.T) {
	pr := NewPGNReader(strings.NewReader("[White \"w\"]\n1. e4 d5 2. Qd4 *"), Alice)
	g, err := pr.Next()
	if err == nil || g == nil || ucis(g.Moves) != "e2e4 d7d5" || g.Tag("White") != "w" {
		t.Errorf("got %v, %v; want the game up to the bad move with the error", g, err)
	}
}

type failingReader struct{ n int }

func (r *failingReader) Read(b []byte) (int, error) {
	if r.n > 0 {
		r.n--
		return copy(b, "1. e4 e5 "), nil
	}
	return 0, errors.New("disk on fire")
}

func TestReadPGNReadError(t *testing.T) {
	for _, n := range []int{0, 1} {
		pr := NewPGNReader(&failingReader{n: n}, Alice)
		for i := range 2 {
			_, err := pr.Next()
			if err == nil || !strings.Contains(err.Error(), "disk on fire") || errors.As(err, new(*PGNError)) {
				t.Errorf("after %d reads, call %d: %v, want the reader's error, not a *PGNError", n, i+1, err)
			}
		}
	}
}

// randomGame plays up to plies random moves from fen.
func randomGame(t testing.TB, rng *rand.Rand, v Variant, fen string, plies int) *Game {
	g := NewGame(v)
	g.StartFEN = fen
	p, err := g.StartPosition()
	if err != nil {
		t.Fatal(err)
	}
	var ml MoveList
	for range plies {
		p.LegalMoves(&ml)
		if ml.N == 0 {
			break
		}
		m := ml.Moves[rng.IntN(ml.N)]
		g.Moves = append(g.Moves, m)
		p.MakeMove(m)
	}
	g.Result = p.Outcome(p.Status())
	return g
}

func TestWritePGNRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	n := 60
	if testing.Short() {
		n = 20
	}
	var buf bytes.Buffer
	var written []*Game
	for i := range n {
		v := Variants()[i%2]
		fen := StartFEN
		if i%3 == 1 {
			// Start some games from a position reached in play.
			mid := randomGame(t, rng, v, StartFEN, 15+rng.IntN(20))
			p, err := mid.FinalPosition()
			if err != nil {
				t.Fatal(err)
			}
			if p.Status().IsOver() {
				continue
			}
			fen = p.FEN()
		}
		g := randomGame(t, rng, v, fen, 1+rng.IntN(150))
		for _, tg := range [][2]string{
			{"Event", "round trip"}, {"Site", "here"}, {"Date", "2025.01.02"}, {"Round", "1"},
			{"White", `A "quoted" \ name`}, {"Black", "B"}, {"Result", g.Result.String()},
			{"Variant", variantTagValue(v)},
		} {
			g.SetTag(tg[0], tg[1])
		}
		if fen != StartFEN {
			g.SetTag("SetUp", "1")
			g.SetTag("FEN", fen)
		}
		g.SetTag("PlyCount", "7")
		before := buf.Len()
		if err := WritePGN(&buf, g); err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(buf.String()[before:], "\n") {
			if len(l) > 79 && l[0] != '[' { // tag pairs cannot be wrapped
				t.Errorf("line of %d characters: %q", len(l), l)
			}
		}
		written = append(written, g)
	}
	text := buf.String()
	read, err := ReadPGN(strings.NewReader(text), Alice)
	if err != nil {
		t.Fatal(err)
	}
	if len(read) != len(written) {
		t.Fatalf("read %d games, wrote %d", len(read), len(written))
	}
	var again bytes.Buffer
	for i, g := range read {
		w := written[i]
		if !slices.Equal(g.Moves, w.Moves) || g.Result != w.Result || g.Variant != w.Variant || g.StartFEN != w.StartFEN {
			t.Errorf("game %d: read %s %s %s %q, wrote %s %s %s %q", i+1,
				ucis(g.Moves), g.Result, g.Variant.Name, g.StartFEN, ucis(w.Moves), w.Result, w.Variant.Name, w.StartFEN)
		}
		if !slices.Equal(g.Tags, w.Tags) {
			t.Errorf("game %d: tags read %q, wrote %q", i+1, g.Tags, w.Tags)
		}
		if err := WritePGN(&again, g); err != nil {
			t.Fatal(err)
		}
	}
	if again.String() != text {
		t.Error("writing the games read back gives different text")
	}
}

func TestWritePGNQuickMate(t *testing.T) {
	g := NewGame(Alice)
	p := NewPosition(Alice)
	for _, s := range strings.Fields("e4 d5 Be2 dxe4 Bb5") {
		m, err := p.ParseSAN(s)
		if err != nil {
			t.Fatal(err)
		}
		g.Moves = append(g.Moves, m)
		p.MakeMove(m)
	}
	g.Result = p.Outcome(p.Status())
	g.SetTag("Event", "quick mate")
	g.SetTag("Annotator", "rule book")
	var buf bytes.Buffer
	if err := WritePGN(&buf, g); err != nil {
		t.Fatal(err)
	}
	want := `[Event "quick mate"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "?"]
[Black "?"]
[Result "1-0"]
[Variant "Alice"]
[Annotator "rule book"]

1. e4 d5 2. Be2 dxe4 3. Bb5# 1-0

`
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
}

func TestWritePGNBlackFirst(t *testing.T) {
	g := NewGame(Alice)
	g.StartFEN = "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 20"
	p, _ := g.StartPosition()
	m, err := p.ParseSAN("O-O-O")
	if err != nil {
		t.Fatal(err)
	}
	g.Moves = []Move{m}
	var buf bytes.Buffer
	if err := WritePGN(&buf, g); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"[SetUp \"1\"]\n[FEN \"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 20\"]\n", "\n20... O-O-O *\n"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, buf.String())
		}
	}
}

func TestWritePGNErrors(t *testing.T) {
	illegal := NewGame(Alice)
	illegal.Moves = []Move{newMove(SquareAt(4, 1), SquareAt(4, 3)), newMove(SquareAt(4, 3), SquareAt(4, 4))}
	badTag := NewGame(Alice)
	badTag.SetTag("Bad Name", "x")
	badFEN := NewGame(Alice)
	badFEN.StartFEN = "8/8 w"
	for _, c := range []struct {
		name string
		g    *Game
		has  string
	}{
		{"illegal move", illegal, `ply 2 ("e4e5")`},
		{"bad tag name", badTag, `"Bad Name"`},
		{"bad FEN", badFEN, "bad FEN"},
	} {
		var buf bytes.Buffer
		err := WritePGN(&buf, c.g)
		if err == nil || !strings.Contains(err.Error(), c.has) {
			t.Errorf("%s: %v, want an error with %q", c.name, err, c.has)
		}
		if buf.Len() != 0 {
			t.Errorf("%s: wrote %q before failing", c.name, buf.String())
		}
	}
}

// TestGameMovesBySquares checks that a game's moves need only name their
// squares: the flags the generator adds (castling, double step) are found
// again, so that MakeMove gets them.
func TestGameMovesBySquares(t *testing.T) {
	g := NewGame(AliceEP)
	for _, u := range strings.Fields("e2e4 d7d5 e4e5 f7f5 e5f6 g8h6 g1f3 b8c6 f1e2 c8d7 e1g1") {
		from, _ := ParseSquare(u[:2])
		to, _ := ParseSquare(u[2:4])
		g.Moves = append(g.Moves, newMove(from, to))
	}
	p, err := g.FinalPosition()
	if err != nil {
		t.Fatal(err)
	}
	if want := "r2qkb1r/ppp|bp1pp/2|n2|P1|n/3|p4/8/5|N2/PPPP|BPPP/RNBQ1|R|K1 b kq - 6 6"; p.FEN() != want {
		t.Errorf("final position %s, want %s", p.FEN(), want)
	}
	var buf bytes.Buffer
	if err := WritePGN(&buf, g); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "3. exf6 ") || !strings.Contains(buf.String(), "6. O-O *") {
		t.Errorf("movetext lacks the en-passant capture or the castling:\n%s", buf.String())
	}
}

func TestGameTags(t *testing.T) {
	g := NewGame(Alice)
	g.SetTag("White", "a")
	g.SetTag("Black", "b")
	g.SetTag("White", "c")
	if g.Tag("White") != "c" || g.Tag("Black") != "b" || g.Tag("white") != "" || len(g.Tags) != 2 || g.Tags[0][0] != "White" {
		t.Errorf("tags %q", g.Tags)
	}
}

func BenchmarkReadPGN(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	var buf bytes.Buffer
	for range 20 {
		if err := WritePGN(&buf, randomGame(b, rng, Alice, StartFEN, 120)); err != nil {
			b.Fatal(err)
		}
	}
	text := buf.Bytes()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if _, err := ReadPGN(bytes.NewReader(text), Alice); err != nil {
			b.Fatal(err)
		}
	}
}

// GameOf unwinds a position to its set-up position and the moves since,
// in every variant and from a set-up position that is not the start;
// replaying the game gives the position back, history and all, and pos is
// left as it was.
func TestGameOf(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 32))
	play := func(p *Position, n int) []Move {
		var played []Move
		var ml MoveList
		for range n {
			p.LegalMoves(&ml)
			if ml.N == 0 {
				break
			}
			m := ml.Moves[rng.IntN(ml.N)]
			played = append(played, m)
			p.MakeMove(m)
		}
		return played
	}
	for _, v := range Variants() {
		for _, tc := range []struct {
			name  string
			setup int // plies played before the position is set up by FEN
			plies int
		}{
			{"start, no moves", 0, 0},
			{"start", 0, 16},
			{"set up mid-game", 9, 12},
		} {
			start := NewPosition(v)
			play(start, tc.setup)
			pos, err := ParseFEN(start.FEN(), v)
			if err != nil {
				t.Fatalf("%s %s: %v", v.Name, tc.name, err)
			}
			setUp := pos.FEN()
			moves := play(pos, tc.plies)
			fen, ply := pos.FEN(), pos.Ply()
			g := GameOf(pos)
			if pos.FEN() != fen || pos.Ply() != ply {
				t.Fatalf("%s %s: GameOf changed the position", v.Name, tc.name)
			}
			if g.Variant != v || g.StartFEN != setUp || !slices.Equal(g.Moves, moves) || g.Result != NoResult {
				t.Errorf("%s %s: game %s %v %q %v, want %s %q %v", v.Name, tc.name, g.Variant.Name, g.Result, g.StartFEN, ucis(g.Moves), v.Name, setUp, ucis(moves))
				continue
			}
			back, err := g.FinalPosition()
			if err != nil {
				t.Fatalf("%s %s: replaying: %v", v.Name, tc.name, err)
			}
			if back.FEN() != fen || back.Ply() != ply || back.Hash() != pos.Hash() || back.Repetitions() != pos.Repetitions() {
				t.Errorf("%s %s: replayed to %s (ply %d), want %s (ply %d)", v.Name, tc.name, back.FEN(), back.Ply(), fen, ply)
			}
		}
	}
}
