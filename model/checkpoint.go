package model

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/fileutil"
)

// Checkpoint file format, version 2 (all integers little-endian):
//
//	offset  size  field
//	0       8     magic "AZNNCKPT"
//	8       4     format version (uint32) = 2
//	12      4     header length H (uint32)
//	16      H     header: UTF-8 JSON (ckptHeader)
//	16+H    P     payload: the tensors listed in the header, in order, as
//	              float32 bits; then ExtraBytes opaque bytes
//	16+H+P  32    SHA-256 of every preceding byte
//
// The magic and version come first and are checked before anything else,
// so that a later version may change everything after them. The header
// records the input encoding and the policy layout the network was built
// for (its number of input planes and env's policy layout name, as its
// Config says them), and a file whose encoding this build does not have
// is refused with ErrEncoding.
const (
	ckptMagic   = "AZNNCKPT"
	ckptVersion = 3
	// Version history (keep in step with readCheckpointBytes):
	//   1: networks of 34 input planes (one of them the colour to move)
	//      with a fully connected policy head over the retired 1858-move
	//      table. Refused: their input and output layers fit nothing this
	//      build computes.
	//   2: the convolutional policy head over env's move-type planes; the
	//      header gains input_planes and policy_layout. Refused: its value
	//      head's hidden layer reads every square's features.
	//   3: the value head averages its filters over the board first
	//      (value.fc1 is [ValueChannels, ValueHidden]).
	ckptPreamble = 16
	// maxPlausibleVersion bounds the versions a newer AliceZero might
	// write (one per format change); beyond it a version is garbage.
	maxPlausibleVersion = 1000
	ckptSumSize         = sha256.Size
	maxHeaderSize       = 16 << 20
	maxCkptSize         = 8 << 30
)

// CheckpointVersion is the format version this build writes and reads.
const CheckpointVersion = ckptVersion

// Checkpoint is the content of a checkpoint file.
type Checkpoint struct {
	// Preset names the architecture's preset ("" if it matches none);
	// informational, Weights carries the real architecture.
	Preset string
	// Step is the number of training steps taken when it was written.
	Step int64
	// TrainConfig, if set, records how the net was being trained: the
	// trainer's configuration as JSON, which model/training writes and
	// reads (this package only carries it).
	TrainConfig json.RawMessage
	// Meta is free-form caller metadata (run id, games played...).
	Meta map[string]string
	// Extra is an opaque blob for the caller's own state (e.g. the
	// trainer's replay-buffer cursor or RNG state).
	Extra []byte
	// Weights are the parameters (required).
	Weights *Weights
	// Optimizer is the optimiser state (nil in weights-only files).
	Optimizer *OptimizerState
}

// Config returns the checkpoint's architecture.
func (c *Checkpoint) Config() Config { return c.Weights.cfg }

type ckptHeader struct {
	Format       string            `json:"format"`
	Preset       string            `json:"preset,omitempty"`
	Config       Config            `json:"config"`
	InputPlanes  int               `json:"input_planes"`
	PolicyLayout string            `json:"policy_layout"`
	Step         int64             `json:"step"`
	TrainConfig  json.RawMessage   `json:"train_config,omitempty"`
	Meta         map[string]string `json:"meta,omitempty"`
	Optimizer    *ckptOptimizer    `json:"optimizer,omitempty"`
	Tensors      []ckptTensor      `json:"tensors"`
	ExtraBytes   int64             `json:"extra_bytes"`
	PayloadBytes int64             `json:"payload_bytes"`
}

type ckptOptimizer struct {
	Kind string `json:"kind"`
	Step int64  `json:"step"`
}

// ckptTensor names one tensor of the payload: a parameter (Slot "") or an
// optimiser buffer of a parameter.
type ckptTensor struct {
	Name  string `json:"name"`
	Slot  string `json:"slot,omitempty"`
	Shape []int  `json:"shape"`
}

const ckptFormatName = "alicezero-checkpoint"

// WriteCheckpoint writes c to w in the current format.
func WriteCheckpoint(w io.Writer, c *Checkpoint) error {
	if c == nil || c.Weights == nil {
		return errors.New("model: write checkpoint: no weights")
	}
	cfg := c.Weights.cfg
	h := ckptHeader{
		Format: ckptFormatName, Preset: c.Preset, Config: cfg,
		InputPlanes: cfg.NumInputPlanes(), PolicyLayout: cfg.layoutName(), Step: c.Step,
		TrainConfig: c.TrainConfig, Meta: c.Meta, ExtraBytes: int64(len(c.Extra)),
	}
	if h.Preset == "" {
		h.Preset = cfg.PresetName()
	}
	var data [][]float32
	for _, p := range c.Weights.params {
		h.Tensors = append(h.Tensors, ckptTensor{Name: p.Name, Shape: p.Shape})
		data = append(data, p.Data)
	}
	if o := c.Optimizer; o != nil {
		// Validated, and in canonical order (slot-major, then parameters
		// in order), the order the reader expects.
		bufs, err := o.Buffers(c.Weights)
		if err != nil {
			return fmt.Errorf("model: write checkpoint: %w", err)
		}
		slots, _ := OptimizerSlots(o.Kind) // known: Buffers checked it
		h.Optimizer = &ckptOptimizer{Kind: o.Kind, Step: o.Step}
		for si, slot := range slots {
			for i, p := range c.Weights.params {
				h.Tensors = append(h.Tensors, ckptTensor{Name: p.Name, Slot: slot, Shape: p.Shape})
				data = append(data, bufs[si][i])
			}
		}
	}
	for _, d := range data {
		h.PayloadBytes += 4 * int64(len(d))
	}
	h.PayloadBytes += h.ExtraBytes
	hj, err := json.Marshal(h)
	if err != nil {
		return fmt.Errorf("model: write checkpoint: encoding header: %w", err)
	}
	if len(hj) > maxHeaderSize {
		return fmt.Errorf("model: write checkpoint: header of %d bytes exceeds %d", len(hj), maxHeaderSize)
	}

	sum := sha256.New()
	bw := bufio.NewWriterSize(io.MultiWriter(w, sum), 1<<16)
	var pre [ckptPreamble]byte
	copy(pre[:], ckptMagic)
	binary.LittleEndian.PutUint32(pre[8:], ckptVersion)
	binary.LittleEndian.PutUint32(pre[12:], uint32(len(hj)))
	bw.Write(pre[:])
	bw.Write(hj)
	var buf [4096]byte
	for _, d := range data {
		for len(d) > 0 {
			n := min(len(d), len(buf)/4)
			for i, v := range d[:n] {
				binary.LittleEndian.PutUint32(buf[4*i:], math.Float32bits(v))
			}
			bw.Write(buf[:4*n])
			d = d[n:]
		}
	}
	bw.Write(c.Extra)
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("model: write checkpoint: %w", err)
	}
	if _, err := w.Write(sum.Sum(nil)); err != nil {
		return fmt.Errorf("model: write checkpoint: %w", err)
	}
	return nil
}

// ReadCheckpoint reads a whole checkpoint from r and validates it.
func ReadCheckpoint(r io.Reader) (*Checkpoint, error) {
	// Look at the preamble before reading the rest, so that a large file
	// of another kind is refused without being read whole.
	pre := make([]byte, ckptPreamble)
	n, err := io.ReadFull(r, pre)
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return readCheckpointBytes(pre[:n])
	}
	if err != nil {
		return nil, fmt.Errorf("model: read checkpoint: %w", err)
	}
	if !bytes.Equal(pre[:len(ckptMagic)], []byte(ckptMagic)) {
		return nil, fmt.Errorf("model: %w", ErrBadMagic)
	}
	rest, err := io.ReadAll(io.LimitReader(r, maxCkptSize+1-ckptPreamble))
	if err != nil {
		return nil, fmt.Errorf("model: read checkpoint: %w", err)
	}
	b := append(pre, rest...)
	if len(b) > maxCkptSize {
		return nil, fmt.Errorf("model: read checkpoint: larger than %d bytes", int64(maxCkptSize))
	}
	return readCheckpointBytes(b)
}

func readCheckpointBytes(b []byte) (*Checkpoint, error) {
	n := min(len(b), len(ckptMagic))
	if !bytes.Equal(b[:n], []byte(ckptMagic)[:n]) {
		return nil, fmt.Errorf("model: %w", ErrBadMagic)
	}
	if len(b) < ckptPreamble {
		return nil, fmt.Errorf("model: %w: %d bytes, shorter than the %d-byte preamble", ErrTruncated, len(b), ckptPreamble)
	}
	version := binary.LittleEndian.Uint32(b[8:])
	switch {
	case version == ckptVersion:
		return readCurrent(b)
	case version == 2:
		return nil, fmt.Errorf("model: %w: file has format version 2, a network whose value head reads every square (retired for one that averages over the board); this build cannot run it: train a new network", ErrVersion)
	case version == 1:
		return nil, fmt.Errorf("model: %w: file has format version 1, a network of the retired design (34 input planes, a fully connected policy head over the 1858-move table) that this build cannot run; train a new network", ErrVersion)
	case version > ckptVersion && version <= maxPlausibleVersion:
		return nil, fmt.Errorf("model: %w: file has format version %d, written by a newer AliceZero; this build reads version %d", ErrVersion, version, ckptVersion)
	default:
		// Version 0, or one no format change would ever reach: the magic
		// matched by chance or the header is damaged.
		return nil, fmt.Errorf("model: not an AliceZero checkpoint: its header's format version %d is not one AliceZero has written or ever will (%w)", version, ErrVersion)
	}
}

func readCurrent(b []byte) (*Checkpoint, error) {
	hlen := int64(binary.LittleEndian.Uint32(b[12:]))
	if hlen > maxHeaderSize {
		return nil, fmt.Errorf("model: %w: header length %d exceeds %d", ErrCorrupt, hlen, maxHeaderSize)
	}
	size := int64(len(b))
	// Checksum first: a corrupt header must be reported as corruption,
	// not as whatever nonsense it decodes to. On mismatch, find out
	// whether the file is merely short, to say so.
	if size < ckptPreamble+hlen+ckptSumSize || !checksumOK(b) {
		if size < ckptPreamble+hlen {
			return nil, fmt.Errorf("model: %w: %d bytes, header alone needs %d", ErrTruncated, size, ckptPreamble+hlen)
		}
		var h ckptHeader
		if json.Unmarshal(b[ckptPreamble:ckptPreamble+hlen], &h) == nil && h.PayloadBytes >= 0 {
			if want := ckptPreamble + hlen + h.PayloadBytes + ckptSumSize; size < want {
				return nil, fmt.Errorf("model: %w: %d bytes, header promises %d", ErrTruncated, size, want)
			}
		}
		return nil, fmt.Errorf("model: %w", ErrChecksum)
	}
	var h ckptHeader
	dec := json.NewDecoder(bytes.NewReader(b[ckptPreamble : ckptPreamble+hlen]))
	if err := dec.Decode(&h); err != nil {
		return nil, fmt.Errorf("model: %w: header: %v", ErrCorrupt, err)
	}
	if h.Format != ckptFormatName {
		return nil, fmt.Errorf("model: %w: header format %q, want %q", ErrCorrupt, h.Format, ckptFormatName)
	}
	if env.PolicyLayoutByName(h.PolicyLayout) == nil {
		return nil, fmt.Errorf("model: %w: the file's network emits policy layout %q, which this build does not have (it has %s)",
			ErrEncoding, h.PolicyLayout, strings.Join(env.PolicyLayoutNames(), ", "))
	}
	// The header's encoding must be the one its architecture builds (a
	// file from before the variants' encodings has the default in both).
	if h.InputPlanes != h.Config.NumInputPlanes() || h.PolicyLayout != h.Config.layoutName() {
		return nil, fmt.Errorf("model: %w: the header records %d input planes and policy layout %q, its architecture %d and %q",
			ErrEncoding, h.InputPlanes, h.PolicyLayout, h.Config.NumInputPlanes(), h.Config.layoutName())
	}
	if want := ckptPreamble + hlen + h.PayloadBytes + ckptSumSize; h.PayloadBytes < 0 || size != want {
		return nil, fmt.Errorf("model: %w: %d bytes, header promises %d", ErrCorrupt, size, want)
	}
	if err := h.Config.Validate(); err != nil {
		return nil, fmt.Errorf("model: %w: %v", ErrCorrupt, err)
	}
	w, err := newZeroWeights(h.Config)
	if err != nil {
		return nil, err
	}
	c := &Checkpoint{Preset: h.Preset, Step: h.Step, TrainConfig: h.TrainConfig, Meta: h.Meta, Weights: w}
	var slots []string
	if h.Optimizer != nil {
		if slots, err = OptimizerSlots(h.Optimizer.Kind); err != nil {
			return nil, fmt.Errorf("model: %w: %v", ErrCorrupt, err)
		}
		c.Optimizer = &OptimizerState{Kind: h.Optimizer.Kind, Step: h.Optimizer.Step}
	}
	// The tensors must be exactly the parameters, then each optimiser
	// slot's buffer of each parameter, by name and shape.
	want := len(w.params) * (1 + len(slots))
	if len(h.Tensors) != want {
		return nil, fmt.Errorf("model: %w: %d tensors, architecture %v needs %d", ErrCorrupt, len(h.Tensors), h.Config, want)
	}
	var total int64
	for i, t := range h.Tensors {
		p := w.params[i%len(w.params)]
		slot := ""
		if i >= len(w.params) {
			slot = slots[i/len(w.params)-1]
		}
		if t.Name != p.Name || t.Slot != slot || !slices.Equal(t.Shape, p.Shape) {
			return nil, fmt.Errorf("model: %w: tensor %d is %q/%q %v, want %q/%q %v", ErrCorrupt, i, t.Slot, t.Name, t.Shape, slot, p.Name, p.Shape)
		}
		total += 4 * int64(len(p.Data))
	}
	if total+h.ExtraBytes != h.PayloadBytes || h.ExtraBytes < 0 {
		return nil, fmt.Errorf("model: %w: payload of %d bytes does not hold %d tensor bytes and %d extra", ErrCorrupt, h.PayloadBytes, total, h.ExtraBytes)
	}
	off := ckptPreamble + hlen
	readInto := func(dst []float32) {
		for i := range dst {
			dst[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[off+4*int64(i):]))
		}
		off += 4 * int64(len(dst))
	}
	for _, p := range w.params {
		readInto(p.Data)
	}
	for _, s := range slots {
		for _, p := range w.params {
			d := make([]float32, len(p.Data))
			readInto(d)
			c.Optimizer.Slots = append(c.Optimizer.Slots, OptimizerSlot{Slot: s, Param: p.Name, Data: d})
		}
	}
	if h.ExtraBytes > 0 {
		c.Extra = slices.Clone(b[off : off+h.ExtraBytes])
	}
	return c, nil
}

func checksumOK(b []byte) bool {
	body, sum := b[:len(b)-ckptSumSize], b[len(b)-ckptSumSize:]
	got := sha256.Sum256(body)
	return bytes.Equal(got[:], sum)
}

// SaveCheckpoint writes c to path atomically (internal/fileutil): a crash
// leaves either the old file or the new one, never part of one.
func SaveCheckpoint(path string, c *Checkpoint) error {
	err := fileutil.WriteAtomicFunc(path, func(w io.Writer) error { return WriteCheckpoint(w, c) })
	if err != nil {
		return fmt.Errorf("model: save checkpoint: %w", err)
	}
	return nil
}

// LoadCheckpoint reads and validates the checkpoint at path.
func LoadCheckpoint(path string) (*Checkpoint, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("model: load checkpoint: %w", err)
	}
	defer f.Close()
	c, err := ReadCheckpoint(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

// LoadWeights loads the weights of the checkpoint at path into w, which
// must have the checkpoint's architecture.
func LoadWeights(path string, w *Weights) error {
	if w == nil {
		return errors.New("model: load weights: nil destination")
	}
	c, err := LoadCheckpoint(path)
	if err != nil {
		return err
	}
	if err := CheckArch(c.Weights.cfg, w.cfg); err != nil {
		return fmt.Errorf("model: load %s: %w", path, err)
	}
	return w.CopyFrom(c.Weights)
}

// CheckArch returns nil if a checkpoint of architecture file fits a net of
// architecture net, else an ErrArchMismatch error naming every differing
// field.
func CheckArch(file, net Config) error {
	if file == net {
		return nil
	}
	var diffs []string
	add := func(name string, a, b int) {
		if a != b {
			diffs = append(diffs, fmt.Sprintf("%s %d (file) vs %d (net)", name, a, b))
		}
	}
	add("blocks", file.Blocks, net.Blocks)
	add("channels", file.Channels, net.Channels)
	add("policy_channels", file.PolicyChannels, net.PolicyChannels)
	add("value_channels", file.ValueChannels, net.ValueChannels)
	add("value_hidden", file.ValueHidden, net.ValueHidden)
	return fmt.Errorf("%w: checkpoint is %v, net is %v: %v", ErrArchMismatch, file, net, diffs)
}
