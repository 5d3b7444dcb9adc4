package replay

import (
	"encoding/binary"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/alicezero/alicezero/env"
)

func testSamples(t *testing.T, n int) []Sample {
	t.Helper()
	p := env.NewPosition(env.Alice)
	var out []Sample
	rng := rand.New(rand.NewPCG(1, 1))
	for len(out) < n {
		var ml env.MoveList
		p.LegalMoves(&ml)
		if ml.N == 0 {
			p = env.NewPosition(env.Alice)
			continue
		}
		dense := make([]float32, env.PolicySize)
		for _, m := range ml.Slice() {
			dense[p.PolicyIndex(m)] = 1 / float32(ml.N)
		}
		out = append(out, Sample{Position: p.Snapshot(), Policy: SparsePolicy(dense), Result: int8(len(out)%3 - 1), RootValue: 0.25})
		p.MakeMove(ml.Moves[rng.IntN(ml.N)])
	}
	return out
}

func TestShardRoundTrip(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "iter-0001.shard")
	in := testSamples(t, 50)
	if err := WriteShard(path, in); err != nil {
		t.Fatal(err)
	}
	out, err := ReadShard(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != len(in) {
		t.Fatalf("read %d samples, wrote %d", len(out), len(in))
	}
	for i := range in {
		if in[i].Position.FEN() != out[i].Position.FEN() || in[i].Result != out[i].Result ||
			in[i].RootValue != out[i].RootValue || len(in[i].Policy) != len(out[i].Policy) {
			t.Fatalf("sample %d differs", i)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("temporary files left behind: %v", entries)
	}
}

func TestShardRefusesDamage(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.shard")
	if err := WriteShard(path, testSamples(t, 10)); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	cases := map[string][]byte{
		"truncated": data[:len(data)/2],
		"flipped":   append(append([]byte{}, data[:100]...), append([]byte{data[100] ^ 1}, data[101:]...)...),
		"not shard": []byte("hello world, not a shard"),
	}
	for name, bad := range cases {
		p := filepath.Join(dir, name)
		os.WriteFile(p, bad, 0o644)
		_, err := ReadShard(p)
		if err == nil || !strings.Contains(err.Error(), p) {
			t.Errorf("%s: error %v", name, err)
		}
	}
}

func TestBufferWindowAndUseCap(t *testing.T) {
	b := NewBuffer(WindowConfig{Min: 30, Max: 40, Fraction: 0.5}, 2)
	all := testSamples(t, 100)
	b.Add(all[:20])
	if b.Len() != 20 {
		t.Fatalf("len %d", b.Len())
	}
	b.Add(all[20:100])
	if b.Len() != 40 || b.Total() != 100 {
		t.Fatalf("len %d total %d, want 40 100", b.Len(), b.Total())
	}
	rng := rand.New(rand.NewPCG(3, 3))
	got, err := b.Sample(rng, 80)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[*Sample]int{}
	for _, s := range got {
		seen[s]++
	}
	for s, n := range seen {
		if n > 2 {
			t.Fatalf("sample %s drawn %d times, cap 2", s.Position.FEN(), n)
		}
	}
	if _, err := b.Sample(rng, 1); err != ErrExhausted {
		t.Fatalf("err %v, want ErrExhausted", err)
	}
}

func TestBatchFill(t *testing.T) {
	samples := testSamples(t, 8)
	ptrs := make([]*Sample, len(samples))
	for i := range samples {
		ptrs[i] = &samples[i]
	}
	bt := NewBatch(8)
	bt.Fill(ptrs, rand.New(rand.NewPCG(5, 5)), 0.25)
	for i := 0; i < 8; i++ {
		var sum float32
		for _, p := range bt.Policy[i*env.PolicySize : (i+1)*env.PolicySize] {
			sum += p
		}
		if sum < 0.999 || sum > 1.001 {
			t.Fatalf("row %d policy sums to %v", i, sum)
		}
		w := bt.WDL[i*3 : i*3+3]
		if sum := w[0] + w[1] + w[2]; sum < 0.9999 || sum > 1.0001 {
			t.Fatalf("row %d WDL %v", i, w)
		}
		// RootValue 0.25 blended at 0.25 into the one-hot result.
		want := samples[i].WDL()
		for j := range want {
			want[j] *= 0.75
		}
		want[0] += 0.25 * 0.25
		want[1] += 0.25 * 0.75
		for j := range want {
			if d := w[j] - want[j]; d > 1e-6 || d < -1e-6 {
				t.Fatalf("row %d WDL %v, want %v", i, w, want)
			}
		}
		var pieces float32
		for _, v := range bt.Planes[i*env.InputSize : i*env.InputSize+24*env.PlaneSize] {
			pieces += v
		}
		if pieces < 2 || pieces > 32 {
			t.Fatalf("row %d has %v pieces", i, pieces)
		}
	}
}

// TestDecodeShardRefusesImpossibleCount: a message whose checksum is right
// but whose sample count cannot fit its size is refused before anything is
// allocated for it (a hostile sender must not make the learner run out of
// memory).
func TestDecodeShardRefusesImpossibleCount(t *testing.T) {
	data := EncodeShard(testSamples(t, 3))
	binary.LittleEndian.PutUint32(data[6:], 1<<31)
	binary.LittleEndian.PutUint32(data[len(data)-4:], crc32.Checksum(data[:len(data)-4], castagnoli))
	_, err := DecodeShard(data, "msg-1")
	if err == nil || !strings.Contains(err.Error(), "cannot fit") || !strings.Contains(err.Error(), "msg-1") {
		t.Fatalf("err %v", err)
	}
	if s, err := DecodeShard(EncodeShard(testSamples(t, 3)), "ok"); err != nil || len(s) != 3 {
		t.Fatalf("round trip: %d samples, %v", len(s), err)
	}
}
