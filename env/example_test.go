package env_test

import (
	"fmt"

	"github.com/alicezero/alicezero/env"
)

// The package documentation's typical use: a position, its legal moves, a
// move made and unmade.
func Example() {
	pos, err := env.ParseFEN(env.StartFEN, env.Alice)
	if err != nil {
		panic(err)
	}
	var ml env.MoveList
	pos.LegalMoves(&ml)
	fmt.Println(ml.N, "legal moves")
	m, err := pos.ParseMove("e4")
	if err != nil {
		panic(err)
	}
	pos.MakeMove(m)
	fmt.Println(pos.FEN()) // the pawn stands on e4 of board B
	pos.UnmakeMove()
	fmt.Println(pos.FEN() == env.StartFEN)
	// Output:
	// 20 legal moves
	// rnbqkbnr/pppppppp/8/8/4|P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1
	// true
}
