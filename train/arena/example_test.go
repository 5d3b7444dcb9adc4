package arena_test

import (
	"context"
	"fmt"

	"github.com/alicezero/alicezero/train/arena"
)

// A short match between two built-in players, as the package documentation
// shows it.
func Example() {
	reg, err := arena.NewRegistry()
	if err != nil {
		panic(err)
	}
	res, err := arena.Run(context.Background(), arena.Config{
		Players:     []string{"ab:depth=1", "random"},
		Registry:    reg,
		Games:       2,
		PlyCap:      40,
		Concurrency: 1,
	})
	if err != nil {
		panic(err)
	}
	p := res.Pairings[0]
	fmt.Println(p.NameA, "vs", p.NameB+":", p.Games, "games")
	// Output: ab:depth=1 vs random: 2 games
}
