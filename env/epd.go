package env

import (
	"fmt"
	"strconv"
	"strings"
)

// EPD is one line of an Extended Position Description file: a position
// (FEN's first four fields) and operations such as "bm Qh5+;" (best move),
// "am Kd2;" (a move to avoid), "dm 2;" (direct mate in two) or
// `id "suite 7";`. The halfmove clock and move number come from the hmvc
// and fmvn operations, or from two numeric fields after the four (a full
// FEN is read as an EPD line without operations).
type EPD struct {
	Position *Position
	Ops      []EPDOp
}

// EPDOp is one operation: its opcode and its operand, unquoted.
type EPDOp struct {
	Code, Operand string
}

// ParseEPD reads one EPD line of variant v. Errors name the field or
// operation at fault.
func ParseEPD(line string, v Variant) (EPD, error) {
	f := strings.Fields(line)
	if len(f) < 4 {
		return EPD{}, fmt.Errorf("epd %q: want four position fields, got %d", line, len(f))
	}
	clocks, skip := []string{"0", "1"}, 4
	if len(f) >= 6 && isCount(f[4]) && isCount(f[5]) {
		clocks, skip = f[4:6], 6
	}
	rest := afterFields(line, skip)
	var e EPD
	ops, err := parseEPDOps(rest)
	if err != nil {
		return EPD{}, fmt.Errorf("epd %q: %w", line, err)
	}
	e.Ops = ops
	if hm, ok := e.Op("hmvc"); ok {
		clocks[0] = hm
	}
	if fm, ok := e.Op("fmvn"); ok {
		clocks[1] = fm
	}
	fen := strings.Join(append(f[:4:4], clocks...), " ")
	if e.Position, err = ParseFEN(fen, v); err != nil {
		return EPD{}, fmt.Errorf("epd %q: %w", line, err)
	}
	return e, nil
}

// afterFields returns s after its first k whitespace-separated fields.
func afterFields(s string, k int) string {
	for range k {
		s = strings.TrimLeft(s, " \t")
		if i := strings.IndexAny(s, " \t"); i >= 0 {
			s = s[i:]
		} else {
			return ""
		}
	}
	return s
}

func isCount(s string) bool {
	n, err := strconv.Atoi(s)
	return err == nil && n >= 0
}

// parseEPDOps splits "op operand; op "quoted; operand";" into operations.
func parseEPDOps(s string) ([]EPDOp, error) {
	var ops []EPDOp
	for {
		s = strings.TrimSpace(s)
		if s == "" {
			return ops, nil
		}
		code, rest, _ := strings.Cut(s, " ")
		if strings.HasSuffix(code, ";") {
			ops = append(ops, EPDOp{Code: strings.TrimSuffix(code, ";")})
			s = rest
			continue
		}
		rest = strings.TrimSpace(rest)
		var operand string
		if strings.HasPrefix(rest, `"`) {
			end := strings.IndexByte(rest[1:], '"')
			if end < 0 {
				return nil, fmt.Errorf("operation %s: unterminated string", code)
			}
			operand, rest = rest[1:1+end], strings.TrimSpace(rest[2+end:])
			if !strings.HasPrefix(rest, ";") {
				return nil, fmt.Errorf("operation %s: want ';' after its string", code)
			}
			rest = rest[1:]
		} else {
			end := strings.IndexByte(rest, ';')
			if end < 0 {
				return nil, fmt.Errorf("operation %s: want ';' at its end", code)
			}
			operand, rest = strings.TrimSpace(rest[:end]), rest[end+1:]
		}
		if code == "" {
			return nil, fmt.Errorf("operation without an opcode")
		}
		ops = append(ops, EPDOp{Code: code, Operand: operand})
		s = rest
	}
}

// Op returns the operand of the first operation with opcode code.
func (e EPD) Op(code string) (string, bool) {
	for _, o := range e.Ops {
		if o.Code == code {
			return o.Operand, true
		}
	}
	return "", false
}

// String writes the line: the position's first four FEN fields, its
// clocks as hmvc and fmvn unless they are 0 and 1, then the operations,
// operands with spaces or semicolons quoted.
func (e EPD) String() string {
	f := strings.Fields(e.Position.FEN())
	var b strings.Builder
	b.WriteString(strings.Join(f[:4], " "))
	ops := e.Ops
	if len(f) >= 6 && (f[4] != "0" || f[5] != "1") {
		if _, ok := e.Op("hmvc"); !ok {
			ops = append(ops[:len(ops):len(ops)], EPDOp{"hmvc", f[4]}, EPDOp{"fmvn", f[5]})
		}
	}
	for _, o := range ops {
		b.WriteByte(' ')
		b.WriteString(o.Code)
		if o.Operand != "" {
			b.WriteByte(' ')
			if strings.ContainsAny(o.Operand, " ;\"") || o.Code == "id" || strings.HasPrefix(o.Code, "c") && len(o.Code) == 2 {
				// EPD strings have no escapes: a quote inside becomes an apostrophe.
				b.WriteString(`"` + strings.ReplaceAll(o.Operand, `"`, "'") + `"`)
			} else {
				b.WriteString(o.Operand)
			}
		}
		b.WriteByte(';')
	}
	return b.String()
}
