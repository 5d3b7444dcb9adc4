package player_test

import (
	"fmt"

	"github.com/alicezero/alicezero/internal/player"
)

func ExampleParseSpec() {
	s, err := player.ParseSpec(`uci:/opt/fsf --hash=64,Threads=2,UCI_Variant=alice`)
	if err != nil {
		panic(err)
	}
	fmt.Printf("kind %s, argument %q\n", s.Kind, s.Arg)
	for _, o := range s.Options {
		fmt.Printf("option %s = %s\n", o.Name, o.Value)
	}
	// Output:
	// kind uci, argument "/opt/fsf --hash=64"
	// option Threads = 2
	// option UCI_Variant = alice
}
