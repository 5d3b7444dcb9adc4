package replay

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"os"
	"sync"

	"github.com/alicezero/alicezero/internal/fileutil"
)

// Shard files: the magic "AZRB", a format version (uint16), the sample
// count (uint32), the samples, and a CRC-32C of everything before it.
//
// Versions: 1 stored policy indices of the retired 1858-move table (refused:
// reading them would need that table); 2 was a development format; 3 stores
// indices of env's move-type planes (plane·64 + from-square) and per-sample
// flags (proven root, no value target).
const (
	shardMagic   = "AZRB"
	shardVersion = 3
)

// castagnoli builds the CRC-32C tables on first use: building them costs
// ~0.2 ms, which every alicezero process would otherwise pay at start-up.
var castagnoli = sync.OnceValue(func() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) })

// WriteShard writes samples to path atomically (fileutil.WriteAtomic), so
// a crash never leaves half a shard under the real name.
func WriteShard(path string, samples []Sample) error {
	return fileutil.WriteAtomic(path, EncodeShard(samples))
}

// EncodeShard returns samples in the shard format: what WriteShard writes
// and what the shard bus carries.
func EncodeShard(samples []Sample) []byte {
	var buf bytes.Buffer
	buf.WriteString(shardMagic)
	b := binary.LittleEndian.AppendUint16(nil, shardVersion)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(samples)))
	for i := range samples {
		b = samples[i].appendBinary(b)
	}
	buf.Write(b)
	buf.Write(binary.LittleEndian.AppendUint32(nil, crc32.Checksum(buf.Bytes(), castagnoli())))
	return buf.Bytes()
}

// ReadShard reads a shard, refusing a truncated or corrupted file.
func ReadShard(path string) ([]Sample, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return DecodeShard(data, path)
}

// DecodeShard decodes a shard, refusing truncated or corrupted data; name
// (a file name or a message id) is what its errors call it.
func DecodeShard(data []byte, name string) ([]Sample, error) {
	fail := func(format string, args ...any) ([]Sample, error) {
		return nil, fmt.Errorf("replay shard %s: %s", name, fmt.Sprintf(format, args...))
	}
	if len(data) < 14 || string(data[:4]) != shardMagic {
		return fail("not a replay shard (bad magic or too short)")
	}
	switch v := binary.LittleEndian.Uint16(data[4:]); {
	case v == 1:
		return fail("format version 1, whose policy targets index the retired 1858-move table; this program reads version %d (move-type planes): generate new self-play data", shardVersion)
	case v == 2:
		return fail("format version 2, a development format of this program (without the per-sample flags, or with the retired policy table); this program reads version %d: generate new self-play data", shardVersion)
	case v != shardVersion:
		return fail("format version %d, this program reads version %d", v, shardVersion)
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	if crc32.Checksum(body, castagnoli()) != sum {
		return fail("checksum mismatch: the data is truncated or corrupted")
	}
	n := int(binary.LittleEndian.Uint32(data[6:]))
	rest := body[10:]
	// A sample takes at least minSampleSize bytes: a count that cannot fit
	// is refused before anything is allocated for it.
	if n > len(rest)/minSampleSize {
		return fail("%d samples cannot fit in %d bytes", n, len(rest))
	}
	samples := make([]Sample, 0, n)
	for i := 0; i < n; i++ {
		s, used, err := decodeSample(rest)
		if err != nil {
			return fail("sample %d: %v", i, err)
		}
		samples = append(samples, s)
		rest = rest[used:]
	}
	if len(rest) != 0 {
		return fail("%d bytes after the last sample", len(rest))
	}
	return samples, nil
}
