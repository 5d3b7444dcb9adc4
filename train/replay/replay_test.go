package replay

import (
	"encoding/binary"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/alicezero/alicezero/env"
)

func testSamples(t *testing.T, n int) []Sample {
	t.Helper()
	return variantSamples(t, env.Alice, n)
}

// variantSamples returns n samples along random games of variant v.
func variantSamples(t *testing.T, v env.Variant, n int) []Sample {
	t.Helper()
	p := env.NewPosition(v)
	var out []Sample
	rng := rand.New(rand.NewPCG(1, 1))
	for len(out) < n {
		var ml env.MoveList
		p.LegalMoves(&ml)
		if ml.N == 0 {
			p = env.NewPosition(v)
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
	// A version-1 shard (policy indices of the retired 1858-move table),
	// checksum intact, is refused by its version, with the reason.
	v1 := append([]byte(nil), data[:len(data)-4]...)
	binary.LittleEndian.PutUint16(v1[4:], 1)
	v1 = binary.LittleEndian.AppendUint32(v1, crc32.Checksum(v1, castagnoli()))
	p := filepath.Join(dir, "v1.shard")
	os.WriteFile(p, v1, 0o644)
	if _, err := ReadShard(p); err == nil || !strings.Contains(err.Error(), "format version 1") || !strings.Contains(err.Error(), "1858") {
		t.Errorf("version-1 shard: error %v", err)
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

// TestBatchFill checks a batch drawn under the board swap, in every
// variant the network covers: the rules' A↔B symmetry (not the start's:
// alice-black-b's start is not swap-symmetric) makes the image a position
// of the same value with the same policy indices.
func TestBatchFill(t *testing.T) {
	for _, v := range []env.Variant{env.Alice, env.AliceEP, env.AliceBlackB, env.AliceMini} {
		t.Run(v.Name, func(t *testing.T) { checkBatchFill(t, v) })
	}
}

func checkBatchFill(t *testing.T, v env.Variant) {
	const n = 16
	samples := variantSamples(t, v, n)
	ptrs := make([]*Sample, len(samples))
	for i := range samples {
		ptrs[i] = &samples[i]
	}
	bt := NewBatch(n, v)
	bt.Fill(ptrs, rand.New(rand.NewPCG(5, 5)), 0.25)
	swapped := 0
	legal := make([]float32, env.PolicySize)
	for i := 0; i < n; i++ {
		var sum float32
		pol := bt.Policy[i*env.PolicySize : (i+1)*env.PolicySize]
		mask := bt.Legal[i*env.PolicySize : (i+1)*env.PolicySize]
		for j, p := range pol {
			sum += p
			if p > 0 && mask[j] != 1 {
				t.Fatalf("row %d: target %v on index %d, which the mask excludes", i, p, j)
			}
		}
		if sum < 0.999 || sum > 1.001 {
			t.Fatalf("row %d policy sums to %v", i, sum)
		}
		// The mask is the sample's own (the board swap fixes indices), and
		// the planes are the sample's, or its board swap's.
		if samples[i].Position.LegalMask(v, legal); !slices.Equal(legal, mask) {
			t.Fatalf("row %d: mask differs from the position's legal moves", i)
		}
		planes := bt.Planes[i*env.InputSize : (i+1)*env.InputSize]
		var same, swap [env.InputSize]float32
		samples[i].Position.Encode(same[:])
		img := samples[i].Position.Transform(env.BoardSwap)
		img.Encode(swap[:])
		switch {
		case slices.Equal(planes, same[:]):
		case slices.Equal(planes, swap[:]):
			swapped++
		default:
			t.Fatalf("row %d: planes are neither the sample's nor its board swap's", i)
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
	}
	if swapped == 0 || swapped == n {
		t.Errorf("%d of %d rows board-swapped: the augmentation is not random", swapped, n)
	}
	rng := rand.New(rand.NewPCG(6, 6))
	if a := testing.AllocsPerRun(10, func() { bt.Fill(ptrs, rng, 0.25) }); a != 0 {
		t.Errorf("Fill: %v allocations per batch, want 0", a)
	}
}

// TestDecodeShardRefusesImpossibleCount: a message whose checksum is right
// but whose sample count cannot fit its size is refused before anything is
// allocated for it (a hostile sender must not make the learner run out of
// memory).
func TestDecodeShardRefusesImpossibleCount(t *testing.T) {
	data := EncodeShard(testSamples(t, 3))
	binary.LittleEndian.PutUint32(data[6:], 1<<31)
	binary.LittleEndian.PutUint32(data[len(data)-4:], crc32.Checksum(data[:len(data)-4], castagnoli()))
	_, err := DecodeShard(data, "msg-1")
	if err == nil || !strings.Contains(err.Error(), "cannot fit") || !strings.Contains(err.Error(), "msg-1") {
		t.Fatalf("err %v", err)
	}
	if s, err := DecodeShard(EncodeShard(testSamples(t, 3)), "ok"); err != nil || len(s) != 3 {
		t.Fatalf("round trip: %d samples, %v", len(s), err)
	}
}
