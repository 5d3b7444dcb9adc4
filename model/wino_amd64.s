//go:build amd64 && !purego

#include "textflag.h"

// Winograd F(2×2, 3×3) transforms on the lane layout (see wino.go): every
// value is one YMM register of 8 lanes (positions). Padded ranks are 320
// bytes apart, squares 32; a tile's 4×4 input patch starts 640 bytes below
// the previous tile row and 64 bytes right of the previous tile.

// TROW computes row r of V = Bᵀ d B for one tile and stores its four
// points. For row r, t_j = d[a][j] OP d[b][j] (a, b given as byte offsets
// A, B of the patch's ranks: Bᵀ's row r is d_a ∓ d_b), then the row's
// points are t0−t2, t1+t2, t2−t1, t1−t3 (Bᵀ applied along the files).
#define TROW(OP, A, B, D0, D1, D2, D3) \
	VMOVUPS A+0(R14), Y0; \
	OP      B+0(R14), Y0, Y0; \
	VMOVUPS A+32(R14), Y1; \
	OP      B+32(R14), Y1, Y1; \
	VMOVUPS A+64(R14), Y2; \
	OP      B+64(R14), Y2, Y2; \
	VMOVUPS A+96(R14), Y3; \
	OP      B+96(R14), Y3, Y3; \
	VSUBPS  Y2, Y0, Y4; \
	VADDPS  Y2, Y1, Y5; \
	VSUBPS  Y1, Y2, Y6; \
	VSUBPS  Y3, Y1, Y7; \
	VMOVUPS Y4, D0; \
	VMOVUPS Y5, D1; \
	VMOVUPS Y6, D2; \
	VMOVUPS Y7, D3

// func winoIn8(src, dst *float32, cin, xiStride int)
//
// For each of cin channels (src: 800 floats apart; dst: 128 floats apart)
// and each of the 16 tiles (dst: 8 floats apart), writes the 16 points of
// V = Bᵀ d B, point ξ at dst + ξ·xiStride floats. Bᵀ's rows are
// d0−d2, d1+d2, d2−d1, d1−d3.
TEXT ·winoIn8(SB), NOSPLIT, $0-32
	MOVQ src+0(FP), SI
	MOVQ dst+8(FP), DI
	MOVQ cin+16(FP), CX
	MOVQ xiStride+24(FP), R8
	SHLQ $2, R8
	LEAQ (R8)(R8*2), R9

inChannel:
	MOVQ SI, AX
	MOVQ DI, R10
	LEAQ (DI)(R8*4), R11
	LEAQ (R11)(R8*4), R12
	LEAQ (R12)(R8*4), R13
	MOVQ $4, BX

inTileRow:
	MOVQ AX, R14
	MOVQ $4, DX

inTile:
	TROW(VSUBPS, 0, 640, (R10), (R10)(R8*1), (R10)(R8*2), (R10)(R9*1))
	TROW(VADDPS, 320, 640, (R11), (R11)(R8*1), (R11)(R8*2), (R11)(R9*1))
	TROW(VSUBPS, 640, 320, (R12), (R12)(R8*1), (R12)(R8*2), (R12)(R9*1))
	TROW(VSUBPS, 320, 960, (R13), (R13)(R8*1), (R13)(R8*2), (R13)(R9*1))
	ADDQ $64, R14
	ADDQ $32, R10
	ADDQ $32, R11
	ADDQ $32, R12
	ADDQ $32, R13
	DECQ DX
	JNZ  inTile
	ADDQ $640, AX
	DECQ BX
	JNZ  inTileRow
	ADDQ $3200, SI
	ADDQ $512, DI
	DECQ CX
	JNZ  inChannel
	VZEROUPPER
	RET

// OCOL combines column j of a tile's 4×4 points of M (M0..M3: its rows'
// operands) into S0 = m0j + m1j + m2j and S1 = m1j − m2j − m3j (Aᵀ along
// the ranks).
#define OCOL(M0, M1, M2, M3, S0, S1) \
	VMOVUPS M1, Y0; \
	VMOVUPS M2, Y1; \
	VADDPS  Y1, Y0, S0; \
	VADDPS  M0, S0, S0; \
	VSUBPS  Y1, Y0, S1; \
	VSUBPS  M3, S1, S1

// func winoOut8(m, dst, bias *float32, cout, xiStride, flags int)
//
// For each of cout channels (m: 128 floats apart; dst: 800 floats apart;
// one bias each) and each of the 16 tiles, computes Y = Aᵀ M A + bias
// from the tile's 16 points (point ξ at m + ξ·xiStride floats) and writes
// its 2×2 outputs to the interior of dst; flags bit 0: add dst's old
// values first (a residual), bit 1: clamp at zero (ReLU).
TEXT ·winoOut8(SB), NOSPLIT, $0-48
	MOVQ m+0(FP), SI
	MOVQ dst+8(FP), DI
	MOVQ bias+16(FP), BX
	MOVQ cout+24(FP), CX
	MOVQ xiStride+32(FP), R8
	MOVQ flags+40(FP), R15
	SHLQ $2, R8
	LEAQ (R8)(R8*2), R9
	VXORPS Y14, Y14, Y14
	ADDQ $352, DI // the interior's first square: rank 1, file 1 of the padded board

outChannel:
	VBROADCASTSS (BX), Y15
	MOVQ SI, R10
	LEAQ (SI)(R8*4), R11
	LEAQ (R11)(R8*4), R12
	LEAQ (R12)(R8*4), R13
	MOVQ DI, R14
	MOVQ $16, DX

outTile:
	// Point ξ = 4a + b: row a from R10..R13, column b at 0, xs, 2xs, 3xs.
	OCOL((R10), (R11), (R12), (R13), Y2, Y3)
	OCOL((R10)(R8*1), (R11)(R8*1), (R12)(R8*1), (R13)(R8*1), Y4, Y5)
	OCOL((R10)(R8*2), (R11)(R8*2), (R12)(R8*2), (R13)(R8*2), Y6, Y7)
	OCOL((R10)(R9*1), (R11)(R9*1), (R12)(R9*1), (R13)(R9*1), Y8, Y9)

	// Aᵀ along the files: y0 = s0 + s1 + s2, y1 = s1 − s2 − s3.
	VADDPS Y4, Y2, Y10
	VADDPS Y6, Y10, Y10
	VSUBPS Y6, Y4, Y11
	VSUBPS Y8, Y11, Y11
	VADDPS Y5, Y3, Y12
	VADDPS Y7, Y12, Y12
	VSUBPS Y7, Y5, Y13
	VSUBPS Y9, Y13, Y13
	VADDPS Y15, Y10, Y10
	VADDPS Y15, Y11, Y11
	VADDPS Y15, Y12, Y12
	VADDPS Y15, Y13, Y13
	BTQ    $0, R15
	JCC    noResidual
	VADDPS (R14), Y10, Y10
	VADDPS 32(R14), Y11, Y11
	VADDPS 320(R14), Y12, Y12
	VADDPS 352(R14), Y13, Y13

noResidual:
	BTQ    $1, R15
	JCC    noReLU
	VMAXPS Y14, Y10, Y10
	VMAXPS Y14, Y11, Y11
	VMAXPS Y14, Y12, Y12
	VMAXPS Y14, Y13, Y13

noReLU:
	VMOVUPS Y10, (R14)
	VMOVUPS Y11, 32(R14)
	VMOVUPS Y12, 320(R14)
	VMOVUPS Y13, 352(R14)
	ADDQ    $64, R14
	ADDQ    $32, R10
	ADDQ    $32, R11
	ADDQ    $32, R12
	ADDQ    $32, R13
	DECQ    DX
	JZ      outChannelDone
	TESTQ   $3, DX
	JNZ     outTile
	ADDQ    $384, R14 // next tile row: two ranks down, back to file 1
	JMP     outTile

outChannelDone:
	ADDQ $512, SI
	ADDQ $3200, DI
	ADDQ $4, BX
	DECQ CX
	JNZ  outChannel
	VZEROUPPER
	RET

// func sgemmPacked8x32(k int, a, b *float32, ldb int, c *float32, ldc, n int)
//
// C[0:8][0:n] = A·B for a packed A (k groups of 8 floats: column l of the
// 8 rows) and row-major B (k×n, stride ldb) and C (stride ldc), n a
// multiple of 32. AVX-512: Z0..Z15 hold C's 8 rows × 32 columns of one
// panel; per step, two loads of B's row and 8 broadcasts of A's column.
TEXT ·sgemmPacked8x32(SB), NOSPLIT, $0-56
	MOVQ k+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DI
	MOVQ ldb+24(FP), R8
	MOVQ c+32(FP), DX
	MOVQ ldc+40(FP), R9
	MOVQ n+48(FP), R10
	SHLQ $2, R8
	SHLQ $2, R9
	SHRQ $5, R10

panel:
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	VPXORD Z4, Z4, Z4
	VPXORD Z5, Z5, Z5
	VPXORD Z6, Z6, Z6
	VPXORD Z7, Z7, Z7
	VPXORD Z8, Z8, Z8
	VPXORD Z9, Z9, Z9
	VPXORD Z10, Z10, Z10
	VPXORD Z11, Z11, Z11
	VPXORD Z12, Z12, Z12
	VPXORD Z13, Z13, Z13
	VPXORD Z14, Z14, Z14
	VPXORD Z15, Z15, Z15
	MOVQ   SI, AX
	MOVQ   DI, BX
	MOVQ   CX, R11

step:
	VMOVUPS      (BX), Z16
	VMOVUPS      64(BX), Z17
	VBROADCASTSS (AX), Z18
	VBROADCASTSS 4(AX), Z19
	VBROADCASTSS 8(AX), Z20
	VBROADCASTSS 12(AX), Z21
	VFMADD231PS  Z16, Z18, Z0
	VFMADD231PS  Z17, Z18, Z1
	VFMADD231PS  Z16, Z19, Z2
	VFMADD231PS  Z17, Z19, Z3
	VFMADD231PS  Z16, Z20, Z4
	VFMADD231PS  Z17, Z20, Z5
	VFMADD231PS  Z16, Z21, Z6
	VFMADD231PS  Z17, Z21, Z7
	VBROADCASTSS 16(AX), Z22
	VBROADCASTSS 20(AX), Z23
	VBROADCASTSS 24(AX), Z24
	VBROADCASTSS 28(AX), Z25
	VFMADD231PS  Z16, Z22, Z8
	VFMADD231PS  Z17, Z22, Z9
	VFMADD231PS  Z16, Z23, Z10
	VFMADD231PS  Z17, Z23, Z11
	VFMADD231PS  Z16, Z24, Z12
	VFMADD231PS  Z17, Z24, Z13
	VFMADD231PS  Z16, Z25, Z14
	VFMADD231PS  Z17, Z25, Z15
	ADDQ         $32, AX
	ADDQ         R8, BX
	DECQ         R11
	JNZ          step

	MOVQ    DX, R12
	VMOVUPS Z0, (R12)
	VMOVUPS Z1, 64(R12)
	ADDQ    R9, R12
	VMOVUPS Z2, (R12)
	VMOVUPS Z3, 64(R12)
	ADDQ    R9, R12
	VMOVUPS Z4, (R12)
	VMOVUPS Z5, 64(R12)
	ADDQ    R9, R12
	VMOVUPS Z6, (R12)
	VMOVUPS Z7, 64(R12)
	ADDQ    R9, R12
	VMOVUPS Z8, (R12)
	VMOVUPS Z9, 64(R12)
	ADDQ    R9, R12
	VMOVUPS Z10, (R12)
	VMOVUPS Z11, 64(R12)
	ADDQ    R9, R12
	VMOVUPS Z12, (R12)
	VMOVUPS Z13, 64(R12)
	ADDQ    R9, R12
	VMOVUPS Z14, (R12)
	VMOVUPS Z15, 64(R12)
	ADDQ    $128, DI
	ADDQ    $128, DX
	DECQ    R10
	JNZ     panel
	VZEROUPPER
	RET

// func transpose8x8(src *float32, srcStride, srcStep int, dst *float32, dstStride, dstStep, count int)
//
// count times: transposes the 8×8 block whose rows start srcStride floats
// apart at src into the block whose rows start dstStride floats apart at
// dst (row i of dst is column i of src); then src += srcStep floats,
// dst += dstStep floats. AVX2.
TEXT ·transpose8x8(SB), NOSPLIT, $0-56
	MOVQ src+0(FP), SI
	MOVQ srcStride+8(FP), R8
	MOVQ srcStep+16(FP), R10
	MOVQ dst+24(FP), DI
	MOVQ dstStride+32(FP), R9
	MOVQ dstStep+40(FP), R11
	MOVQ count+48(FP), CX
	SHLQ $2, R8
	SHLQ $2, R9
	SHLQ $2, R10
	SHLQ $2, R11
	LEAQ (R8)(R8*2), R12 // 3 source rows
	LEAQ (R9)(R9*2), R13 // 3 destination rows

block:
	MOVQ    SI, AX
	VMOVUPS (AX), Y0
	VMOVUPS (AX)(R8*1), Y1
	VMOVUPS (AX)(R8*2), Y2
	VMOVUPS (AX)(R12*1), Y3
	LEAQ    (AX)(R8*4), AX
	VMOVUPS (AX), Y4
	VMOVUPS (AX)(R8*1), Y5
	VMOVUPS (AX)(R8*2), Y6
	VMOVUPS (AX)(R12*1), Y7

	// Interleave pairs of rows, then pairs of pairs, then the halves.
	VUNPCKLPS Y1, Y0, Y8
	VUNPCKHPS Y1, Y0, Y9
	VUNPCKLPS Y3, Y2, Y10
	VUNPCKHPS Y3, Y2, Y11
	VUNPCKLPS Y5, Y4, Y12
	VUNPCKHPS Y5, Y4, Y13
	VUNPCKLPS Y7, Y6, Y14
	VUNPCKHPS Y7, Y6, Y15
	VSHUFPS   $0x44, Y10, Y8, Y0
	VSHUFPS   $0xEE, Y10, Y8, Y1
	VSHUFPS   $0x44, Y11, Y9, Y2
	VSHUFPS   $0xEE, Y11, Y9, Y3
	VSHUFPS   $0x44, Y14, Y12, Y4
	VSHUFPS   $0xEE, Y14, Y12, Y5
	VSHUFPS   $0x44, Y15, Y13, Y6
	VSHUFPS   $0xEE, Y15, Y13, Y7
	VPERM2F128 $0x20, Y4, Y0, Y8
	VPERM2F128 $0x20, Y5, Y1, Y9
	VPERM2F128 $0x20, Y6, Y2, Y10
	VPERM2F128 $0x20, Y7, Y3, Y11
	VPERM2F128 $0x31, Y4, Y0, Y12
	VPERM2F128 $0x31, Y5, Y1, Y13
	VPERM2F128 $0x31, Y6, Y2, Y14
	VPERM2F128 $0x31, Y7, Y3, Y15

	MOVQ    DI, BX
	VMOVUPS Y8, (BX)
	VMOVUPS Y9, (BX)(R9*1)
	VMOVUPS Y10, (BX)(R9*2)
	VMOVUPS Y11, (BX)(R13*1)
	LEAQ    (BX)(R9*4), BX
	VMOVUPS Y12, (BX)
	VMOVUPS Y13, (BX)(R9*1)
	VMOVUPS Y14, (BX)(R9*2)
	VMOVUPS Y15, (BX)(R13*1)
	ADDQ    R10, SI
	ADDQ    R11, DI
	DECQ    CX
	JNZ     block
	VZEROUPPER
	RET
