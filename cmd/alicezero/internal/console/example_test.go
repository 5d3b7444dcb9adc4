package console_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/alicezero/alicezero/cmd/alicezero/internal/console"
	"github.com/alicezero/alicezero/cmd/alicezero/internal/enginetest"
	"github.com/alicezero/alicezero/env"
)

// A game typed in, with a fake engine that plays the first legal move (a
// real one is engine.New(engine.Options{Weights: "checkpoints/run1"})).
// The example prints what follows each prompt; the screen also shows both
// boards after every move and the engine's thinking.
func ExampleRun() {
	typed := strings.NewReader("e4\nKe3\nfen\nquit\n")
	var screen strings.Builder
	if err := console.Run(context.Background(), enginetest.New(), typed, &screen, console.Options{User: env.White, ASCII: true}); err != nil {
		panic(err)
	}
	for _, line := range strings.Split(screen.String(), "\n") {
		if _, answer, ok := strings.Cut(line, ") > "); ok && answer != "" {
			fmt.Println(answer)
		}
	}
	// Output:
	// You play 1. e4/B
	// Illegal move "Ke3": no legal king move to e3 fits. Type moves for the legal moves, help for the commands.
	// r1bqkbnr/pppppppp/|n7/8/4|P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2
}
