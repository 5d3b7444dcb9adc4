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

// func winoIn8(src, dst *float32, cin, ld, xiStride int)
//
// For each of cin channels (src: 800 floats apart; dst: ld floats apart)
// and each of the 16 tiles (dst: 8 floats apart), writes the 16 points of
// V = Bᵀ d B, point ξ at dst + ξ·xiStride floats. Bᵀ's rows are
// d0−d2, d1+d2, d2−d1, d1−d3.
TEXT ·winoIn8(SB), NOSPLIT, $0-40
	MOVQ src+0(FP), SI
	MOVQ dst+8(FP), DI
	MOVQ cin+16(FP), CX
	MOVQ ld+24(FP), R15
	MOVQ xiStride+32(FP), R8
	SHLQ $2, R15
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
	ADDQ R15, DI
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

// func sgemmPacked8x32Bias(k int, a, b *float32, ldb int, c *float32, ldc, n int, bias *float32, relu int)
//
// sgemmPacked8x32 with the 8 rows' bias added (C = A·B + bias, each row's
// sums started from its bias) and, if relu is not 0, C clamped at zero.
TEXT ·sgemmPacked8x32Bias(SB), NOSPLIT, $0-72
	MOVQ k+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DI
	MOVQ ldb+24(FP), R8
	MOVQ c+32(FP), DX
	MOVQ ldc+40(FP), R9
	MOVQ n+48(FP), R10
	MOVQ bias+56(FP), R13
	SHLQ $2, R8
	SHLQ $2, R9
	SHRQ $5, R10
	VPXORD Z26, Z26, Z26

panel:
	VBROADCASTSS 0(R13), Z0
	VMOVAPS      Z0, Z1
	VBROADCASTSS 4(R13), Z2
	VMOVAPS      Z2, Z3
	VBROADCASTSS 8(R13), Z4
	VMOVAPS      Z4, Z5
	VBROADCASTSS 12(R13), Z6
	VMOVAPS      Z6, Z7
	VBROADCASTSS 16(R13), Z8
	VMOVAPS      Z8, Z9
	VBROADCASTSS 20(R13), Z10
	VMOVAPS      Z10, Z11
	VBROADCASTSS 24(R13), Z12
	VMOVAPS      Z12, Z13
	VBROADCASTSS 28(R13), Z14
	VMOVAPS      Z14, Z15
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

	MOVQ  relu+64(FP), AX
	TESTQ AX, AX
	JZ    store
	VMAXPS Z0, Z26, Z0
	VMAXPS Z1, Z26, Z1
	VMAXPS Z2, Z26, Z2
	VMAXPS Z3, Z26, Z3
	VMAXPS Z4, Z26, Z4
	VMAXPS Z5, Z26, Z5
	VMAXPS Z6, Z26, Z6
	VMAXPS Z7, Z26, Z7
	VMAXPS Z8, Z26, Z8
	VMAXPS Z9, Z26, Z9
	VMAXPS Z10, Z26, Z10
	VMAXPS Z11, Z26, Z11
	VMAXPS Z12, Z26, Z12
	VMAXPS Z13, Z26, Z13
	VMAXPS Z14, Z26, Z14
	VMAXPS Z15, Z26, Z15

store:
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

// MASKROW zeroes the floats of R where the 8 floats at M are not > 0
// (Y9 holds zeros; Y8 is clobbered).
#define MASKROW(M, R) \
	VMOVUPS M, Y8; \
	VCMPPS  $0x0e, Y9, Y8, Y8; \
	VANDPS  Y8, R, R

// func transpose8x8Masked(src, mask *float32, srcStride, srcStep int, dst *float32, dstStride, dstStep, count int)
//
// transpose8x8 of src with every float zeroed where the float at the same
// offset from mask is not > 0 (the ReLU's gradient mask). AVX2.
TEXT ·transpose8x8Masked(SB), NOSPLIT, $0-64
	MOVQ src+0(FP), SI
	MOVQ mask+8(FP), DX
	MOVQ srcStride+16(FP), R8
	MOVQ srcStep+24(FP), R10
	MOVQ dst+32(FP), DI
	MOVQ dstStride+40(FP), R9
	MOVQ dstStep+48(FP), R11
	MOVQ count+56(FP), CX
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

	// Zero where the mask is not > 0.
	VXORPS  Y9, Y9, Y9
	MOVQ    DX, AX
	MASKROW((AX), Y0)
	MASKROW((AX)(R8*1), Y1)
	MASKROW((AX)(R8*2), Y2)
	MASKROW((AX)(R12*1), Y3)
	LEAQ    (AX)(R8*4), AX
	MASKROW((AX), Y4)
	MASKROW((AX)(R8*1), Y5)
	MASKROW((AX)(R8*2), Y6)
	MASKROW((AX)(R12*1), Y7)

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
	ADDQ    R10, DX
	ADDQ    R11, DI
	DECQ    CX
	JNZ     block
	VZEROUPPER
	RET

// func transpose8x8MaskedKeep(src, mask, keep *float32, srcStride, srcStep int, dst *float32, dstStride, dstStep, count int)
//
// transpose8x8Masked that also stores the masked rows, untransposed, at
// the same offsets from keep. AVX2.
TEXT ·transpose8x8MaskedKeep(SB), NOSPLIT, $0-72
	MOVQ src+0(FP), SI
	MOVQ mask+8(FP), DX
	MOVQ keep+16(FP), R15
	MOVQ srcStride+24(FP), R8
	MOVQ srcStep+32(FP), R10
	MOVQ dst+40(FP), DI
	MOVQ dstStride+48(FP), R9
	MOVQ dstStep+56(FP), R11
	MOVQ count+64(FP), CX
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

	// Zero where the mask is not > 0.
	VXORPS  Y9, Y9, Y9
	MOVQ    DX, AX
	MASKROW((AX), Y0)
	MASKROW((AX)(R8*1), Y1)
	MASKROW((AX)(R8*2), Y2)
	MASKROW((AX)(R12*1), Y3)
	LEAQ    (AX)(R8*4), AX
	MASKROW((AX), Y4)
	MASKROW((AX)(R8*1), Y5)
	MASKROW((AX)(R8*2), Y6)
	MASKROW((AX)(R12*1), Y7)
	MOVQ    R15, AX
	VMOVUPS Y0, (AX)
	VMOVUPS Y1, (AX)(R8*1)
	VMOVUPS Y2, (AX)(R8*2)
	VMOVUPS Y3, (AX)(R12*1)
	LEAQ    (AX)(R8*4), AX
	VMOVUPS Y4, (AX)
	VMOVUPS Y5, (AX)(R8*1)
	VMOVUPS Y6, (AX)(R8*2)
	VMOVUPS Y7, (AX)(R12*1)

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
	ADDQ    R10, DX
	ADDQ    R10, R15
	ADDQ    R11, DI
	DECQ    CX
	JNZ     block
	VZEROUPPER
	RET

// RED4 reduces four YMM sums A, B, C, D (8 partial sums each; XA and XB
// name A's and B's lower halves) to the four totals, stored as 4 floats at
// DST: two rounds of pairwise horizontal adds within each 128-bit half,
// then the halves added (B, free after the first add, holds the upper).
#define RED4(A, XA, B, XB, C, D, DST) \
	VHADDPS B, A, A; \
	VHADDPS D, C, C; \
	VHADDPS C, A, A; \
	VEXTRACTF128 $1, A, XB; \
	VADDPS XB, XA, XA; \
	VMOVUPS XA, DST

// RED4ACC is RED4 adding the totals to the 4 floats at DST.
#define RED4ACC(A, XA, B, XB, C, D, DST) \
	VHADDPS B, A, A; \
	VHADDPS D, C, C; \
	VHADDPS C, A, A; \
	VEXTRACTF128 $1, A, XB; \
	VADDPS XB, XA, XA; \
	VADDPS DST, XA, XA; \
	VMOVUPS XA, DST

// func gemmNT4x4AVX512(k int, a *float32, lda int, b *float32, ldb int, c *float32, ldc, acc int)
//
// C[0:4][0:4] = A[0:4][0:k] · B[0:4][0:k]ᵀ, every element the dot product
// of a row of A and a row of B; k a multiple of 16, strides in floats.
// Z0..Z15 hold 16 partial sums of each element, reduced at the end.
TEXT ·gemmNT4x4AVX512(SB), NOSPLIT, $0-64
	MOVQ k+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ lda+16(FP), R8
	MOVQ b+24(FP), DI
	MOVQ ldb+32(FP), R9
	MOVQ c+40(FP), DX
	MOVQ ldc+48(FP), R10
	SHLQ $2, R8
	SHLQ $2, R9
	SHLQ $2, R10
	LEAQ (R8)(R8*2), R11
	LEAQ (R9)(R9*2), R12
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
	SHRQ   $4, CX

nt512:
	VMOVUPS     (SI), Z16
	VMOVUPS     (SI)(R8*1), Z17
	VMOVUPS     (SI)(R8*2), Z18
	VMOVUPS     (SI)(R11*1), Z19
	VMOVUPS     (DI), Z20
	VMOVUPS     (DI)(R9*1), Z21
	VMOVUPS     (DI)(R9*2), Z22
	VMOVUPS     (DI)(R12*1), Z23
	VFMADD231PS Z20, Z16, Z0
	VFMADD231PS Z21, Z16, Z1
	VFMADD231PS Z22, Z16, Z2
	VFMADD231PS Z23, Z16, Z3
	VFMADD231PS Z20, Z17, Z4
	VFMADD231PS Z21, Z17, Z5
	VFMADD231PS Z22, Z17, Z6
	VFMADD231PS Z23, Z17, Z7
	VFMADD231PS Z20, Z18, Z8
	VFMADD231PS Z21, Z18, Z9
	VFMADD231PS Z22, Z18, Z10
	VFMADD231PS Z23, Z18, Z11
	VFMADD231PS Z20, Z19, Z12
	VFMADD231PS Z21, Z19, Z13
	VFMADD231PS Z22, Z19, Z14
	VFMADD231PS Z23, Z19, Z15
	ADDQ        $64, SI
	ADDQ        $64, DI
	DECQ        CX
	JNZ         nt512

	// Fold each sum's upper 256 bits onto its lower.
	VEXTRACTF64X4 $1, Z0, Y16
	VADDPS        Y16, Y0, Y0
	VEXTRACTF64X4 $1, Z1, Y16
	VADDPS        Y16, Y1, Y1
	VEXTRACTF64X4 $1, Z2, Y16
	VADDPS        Y16, Y2, Y2
	VEXTRACTF64X4 $1, Z3, Y16
	VADDPS        Y16, Y3, Y3
	VEXTRACTF64X4 $1, Z4, Y16
	VADDPS        Y16, Y4, Y4
	VEXTRACTF64X4 $1, Z5, Y16
	VADDPS        Y16, Y5, Y5
	VEXTRACTF64X4 $1, Z6, Y16
	VADDPS        Y16, Y6, Y6
	VEXTRACTF64X4 $1, Z7, Y16
	VADDPS        Y16, Y7, Y7
	VEXTRACTF64X4 $1, Z8, Y16
	VADDPS        Y16, Y8, Y8
	VEXTRACTF64X4 $1, Z9, Y16
	VADDPS        Y16, Y9, Y9
	VEXTRACTF64X4 $1, Z10, Y16
	VADDPS        Y16, Y10, Y10
	VEXTRACTF64X4 $1, Z11, Y16
	VADDPS        Y16, Y11, Y11
	VEXTRACTF64X4 $1, Z12, Y16
	VADDPS        Y16, Y12, Y12
	VEXTRACTF64X4 $1, Z13, Y16
	VADDPS        Y16, Y13, Y13
	VEXTRACTF64X4 $1, Z14, Y16
	VADDPS        Y16, Y14, Y14
	VEXTRACTF64X4 $1, Z15, Y16
	VADDPS        Y16, Y15, Y15
	LEAQ          (R10)(R10*2), R13
	MOVQ          acc+56(FP), AX
	TESTQ         AX, AX
	JNZ           nt512acc
	RED4(Y0, X0, Y1, X1, Y2, Y3, (DX))
	RED4(Y4, X4, Y5, X5, Y6, Y7, (DX)(R10*1))
	RED4(Y8, X8, Y9, X9, Y10, Y11, (DX)(R10*2))
	RED4(Y12, X12, Y13, X13, Y14, Y15, (DX)(R13*1))
	VZEROUPPER
	RET

nt512acc:
	RED4ACC(Y0, X0, Y1, X1, Y2, Y3, (DX))
	RED4ACC(Y4, X4, Y5, X5, Y6, Y7, (DX)(R10*1))
	RED4ACC(Y8, X8, Y9, X9, Y10, Y11, (DX)(R10*2))
	RED4ACC(Y12, X12, Y13, X13, Y14, Y15, (DX)(R13*1))
	VZEROUPPER
	RET

// func gemmNT4x4AVX2(k int, a *float32, lda int, b *float32, ldb int, c *float32, ldc, acc int)
//
// gemmNT4x4AVX512 for AVX2, k a multiple of 8: Y0..Y15 hold 8 partial
// sums of each element; B's rows are read from memory by the FMAs.
TEXT ·gemmNT4x4AVX2(SB), NOSPLIT, $0-64
	MOVQ k+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ lda+16(FP), R8
	MOVQ b+24(FP), DI
	MOVQ ldb+32(FP), R9
	MOVQ c+40(FP), DX
	MOVQ ldc+48(FP), R10
	SHLQ $2, R8
	SHLQ $2, R9
	SHLQ $2, R10
	LEAQ (R8)(R8*2), R11
	LEAQ (R9)(R9*2), R12
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	VXORPS Y8, Y8, Y8
	VXORPS Y9, Y9, Y9
	VXORPS Y10, Y10, Y10
	VXORPS Y11, Y11, Y11
	SHRQ   $3, CX

	// Rows 0..2 of A against the 4 rows of B (12 sums in Y0..Y11), then
	// row 3 in a second pass, for lack of registers.
nt256:
	VMOVUPS     (SI), Y12
	VMOVUPS     (SI)(R8*1), Y13
	VMOVUPS     (SI)(R8*2), Y14
	VMOVUPS     (DI), Y15
	VFMADD231PS Y15, Y12, Y0
	VFMADD231PS Y15, Y13, Y4
	VFMADD231PS Y15, Y14, Y8
	VMOVUPS     (DI)(R9*1), Y15
	VFMADD231PS Y15, Y12, Y1
	VFMADD231PS Y15, Y13, Y5
	VFMADD231PS Y15, Y14, Y9
	VMOVUPS     (DI)(R9*2), Y15
	VFMADD231PS Y15, Y12, Y2
	VFMADD231PS Y15, Y13, Y6
	VFMADD231PS Y15, Y14, Y10
	VMOVUPS     (DI)(R12*1), Y15
	VFMADD231PS Y15, Y12, Y3
	VFMADD231PS Y15, Y13, Y7
	VFMADD231PS Y15, Y14, Y11
	ADDQ        $32, SI
	ADDQ        $32, DI
	DECQ        CX
	JNZ         nt256

	// Store rows 0..2, then compute row 3.
	MOVQ acc+56(FP), AX
	TESTQ AX, AX
	JNZ  nt256acc
	RED4(Y0, X0, Y1, X1, Y2, Y3, (DX))
	RED4(Y4, X4, Y5, X5, Y6, Y7, (DX)(R10*1))
	RED4(Y8, X8, Y9, X9, Y10, Y11, (DX)(R10*2))
	JMP  nt256row3start

nt256acc:
	RED4ACC(Y0, X0, Y1, X1, Y2, Y3, (DX))
	RED4ACC(Y4, X4, Y5, X5, Y6, Y7, (DX)(R10*1))
	RED4ACC(Y8, X8, Y9, X9, Y10, Y11, (DX)(R10*2))

nt256row3start:
	MOVQ   k+0(FP), CX
	MOVQ   a+8(FP), SI
	MOVQ   b+24(FP), DI
	ADDQ   R11, SI
	SHRQ   $3, CX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3

nt256row3:
	VMOVUPS     (SI), Y12
	VFMADD231PS (DI), Y12, Y0
	VFMADD231PS (DI)(R9*1), Y12, Y1
	VFMADD231PS (DI)(R9*2), Y12, Y2
	VFMADD231PS (DI)(R12*1), Y12, Y3
	ADDQ        $32, SI
	ADDQ        $32, DI
	DECQ        CX
	JNZ         nt256row3
	LEAQ        (DX)(R10*2), DX
	ADDQ        R10, DX
	TESTQ       AX, AX
	JNZ         nt256acc3
	RED4(Y0, X0, Y1, X1, Y2, Y3, (DX))
	VZEROUPPER
	RET

nt256acc3:
	RED4ACC(Y0, X0, Y1, X1, Y2, Y3, (DX))
	VZEROUPPER
	RET

// AROW stores row i of a tile's dM = A dY Aᵀ from U0 = u_i0, U1 = u_i1:
// u_i0, u_i0 + u_i1, u_i0 − u_i1, −u_i1 (Y14 holds the sign bit).
#define AROW(U0, U1, D0, D1, D2, D3) \
	VMOVUPS U0, D0; \
	VADDPS  U1, U0, Y10; \
	VMOVUPS Y10, D1; \
	VSUBPS  U1, U0, Y11; \
	VMOVUPS Y11, D2; \
	VXORPS  Y14, U1, Y12; \
	VMOVUPS Y12, D3

// func winoOutAdj8(dy, dm *float32, cout, ld, xiStride int)
//
// winoOutAdjointGo for 8 lanes: for each of cout channels (dy: 800 floats
// apart, interior read; dm: ld floats apart) and tile (dm: 8 floats
// apart), dM = A dY Aᵀ, point ξ at dm + ξ·xiStride floats.
TEXT ·winoOutAdj8(SB), NOSPLIT, $0-40
	MOVQ dy+0(FP), SI
	MOVQ dm+8(FP), DI
	MOVQ cout+16(FP), CX
	MOVQ ld+24(FP), R15
	MOVQ xiStride+32(FP), R8
	SHLQ $2, R15
	SHLQ $2, R8
	LEAQ (R8)(R8*2), R9
	VPCMPEQD Y14, Y14, Y14
	VPSLLD   $31, Y14, Y14
	ADDQ     $352, SI // the interior's first square

adjOutChannel:
	MOVQ SI, R14
	MOVQ DI, R10
	LEAQ (DI)(R8*4), R11
	LEAQ (R11)(R8*4), R12
	LEAQ (R12)(R8*4), R13
	MOVQ $16, DX

adjOutTile:
	VMOVUPS (R14), Y0     // dY00
	VMOVUPS 32(R14), Y1   // dY01
	VMOVUPS 320(R14), Y2  // dY10
	VMOVUPS 352(R14), Y3  // dY11
	VADDPS  Y2, Y0, Y4    // u10
	VADDPS  Y3, Y1, Y5    // u11
	VSUBPS  Y2, Y0, Y6    // u20
	VSUBPS  Y3, Y1, Y7    // u21
	VXORPS  Y14, Y2, Y8   // u30
	VXORPS  Y14, Y3, Y9   // u31
	AROW(Y0, Y1, (R10), (R10)(R8*1), (R10)(R8*2), (R10)(R9*1))
	AROW(Y4, Y5, (R11), (R11)(R8*1), (R11)(R8*2), (R11)(R9*1))
	AROW(Y6, Y7, (R12), (R12)(R8*1), (R12)(R8*2), (R12)(R9*1))
	AROW(Y8, Y9, (R13), (R13)(R8*1), (R13)(R8*2), (R13)(R9*1))
	ADDQ    $64, R14
	ADDQ    $32, R10
	ADDQ    $32, R11
	ADDQ    $32, R12
	ADDQ    $32, R13
	DECQ    DX
	JZ      adjOutChannelDone
	TESTQ   $3, DX
	JNZ     adjOutTile
	ADDQ    $384, R14
	JMP     adjOutTile

adjOutChannelDone:
	ADDQ $3200, SI
	ADDQ R15, DI
	DECQ CX
	JNZ  adjOutChannel
	VZEROUPPER
	RET

// BROW adds row a of a tile's B dV Bᵀ (w_a0..w_a3 in Y0..Y3) onto the
// patch's rank at OFF(R14): += w0, += (w1 − w2) + w3, += (w1 + w2) − w0,
// −= w3.
#define BROW(OFF) \
	VADDPS  OFF+0(R14), Y0, Y4; \
	VMOVUPS Y4, OFF+0(R14); \
	VSUBPS  Y2, Y1, Y5; \
	VADDPS  Y3, Y5, Y5; \
	VADDPS  OFF+32(R14), Y5, Y5; \
	VMOVUPS Y5, OFF+32(R14); \
	VADDPS  Y2, Y1, Y6; \
	VSUBPS  Y0, Y6, Y6; \
	VADDPS  OFF+64(R14), Y6, Y6; \
	VMOVUPS Y6, OFF+64(R14); \
	VMOVUPS OFF+96(R14), Y7; \
	VSUBPS  Y3, Y7, Y7; \
	VMOVUPS Y7, OFF+96(R14)

// BCOL2 leaves w_a0..w_a3 = (V1j − V2j) + V3j or (V1j + V2j) − V0j for the
// four columns j, in Y0..Y3: OP1 combines row P with row Q, OP2 adds or
// subtracts row R (rows as base registers).
#define BCOL2(P, Q, R, OP1, OP2) \
	VMOVUPS (P), Y0; \
	OP1     (Q), Y0, Y0; \
	OP2     (R), Y0, Y0; \
	VMOVUPS (P)(R8*1), Y1; \
	OP1     (Q)(R8*1), Y1, Y1; \
	OP2     (R)(R8*1), Y1, Y1; \
	VMOVUPS (P)(R8*2), Y2; \
	OP1     (Q)(R8*2), Y2, Y2; \
	OP2     (R)(R8*2), Y2, Y2; \
	VMOVUPS (P)(R9*1), Y3; \
	OP1     (Q)(R9*1), Y3, Y3; \
	OP2     (R)(R9*1), Y3, Y3

// func winoInAdj8(dv *float32, cin, xiStride int, dx *float32)
//
// winoInAdjointGo for 8 lanes, adding onto dx, which the caller has
// zeroed: for each of cin channels (dv: 128 floats apart; dx: 800) and
// tile, B dV Bᵀ added onto the tile's 4×4 patch.
TEXT ·winoInAdj8(SB), NOSPLIT, $0-32
	MOVQ dv+0(FP), SI
	MOVQ cin+8(FP), CX
	MOVQ xiStride+16(FP), R8
	MOVQ dx+24(FP), DI
	SHLQ $2, R8
	LEAQ (R8)(R8*2), R9
	VPCMPEQD Y14, Y14, Y14
	VPSLLD   $31, Y14, Y14

adjInChannel:
	MOVQ SI, R10
	LEAQ (SI)(R8*4), R11
	LEAQ (R11)(R8*4), R12
	LEAQ (R12)(R8*4), R13
	MOVQ DI, R14
	MOVQ $16, DX

adjInTile:
	// Row a = 0: w0j = V0j.
	VMOVUPS (R10), Y0
	VMOVUPS (R10)(R8*1), Y1
	VMOVUPS (R10)(R8*2), Y2
	VMOVUPS (R10)(R9*1), Y3
	BROW(0)
	// Row 1: w1j = (V1j − V2j) + V3j.
	BCOL2(R11, R12, R13, VSUBPS, VADDPS)
	BROW(320)
	// Row 2: w2j = (V1j + V2j) − V0j.
	BCOL2(R11, R12, R10, VADDPS, VSUBPS)
	BROW(640)
	// Row 3: w3j = −V3j.
	VXORPS (R13), Y14, Y0
	VXORPS (R13)(R8*1), Y14, Y1
	VXORPS (R13)(R8*2), Y14, Y2
	VXORPS (R13)(R9*1), Y14, Y3
	BROW(960)
	ADDQ   $64, R14
	ADDQ   $32, R10
	ADDQ   $32, R11
	ADDQ   $32, R12
	ADDQ   $32, R13
	DECQ   DX
	JZ     adjInChannelDone
	TESTQ  $3, DX
	JNZ    adjInTile
	ADDQ   $384, R14
	JMP    adjInTile

adjInChannelDone:
	ADDQ $512, SI
	ADDQ $3200, DI
	DECQ CX
	JNZ  adjInChannel
	VZEROUPPER
	RET

// func reluGrad8(dy, y, d *float32, n int)
//
// d[i] = dy[i] if y[i] > 0, else 0, for n a multiple of 8: a compare and
// a mask, no branch.
TEXT ·reluGrad8(SB), NOSPLIT, $0-32
	MOVQ   dy+0(FP), SI
	MOVQ   y+8(FP), BX
	MOVQ   d+16(FP), DI
	MOVQ   n+24(FP), CX
	SHRQ   $3, CX
	VXORPS Y15, Y15, Y15

reluGradLoop:
	VMOVUPS (BX), Y0
	VCMPPS  $0x0e, Y15, Y0, Y1 // y > 0 (ordered, signalling)
	VANDPS  (SI), Y1, Y1
	VMOVUPS Y1, (DI)
	ADDQ    $32, SI
	ADDQ    $32, BX
	ADDQ    $32, DI
	DECQ    CX
	JNZ     reluGradLoop
	VZEROUPPER
	RET

// func sumBlocks64(x *float32, blocks, stride int) float32
//
// The sum of blocks blocks of 64 floats, stride floats apart: 8 vector
// sums of 8 lanes, added pairwise at the end (a fixed order).
TEXT ·sumBlocks64(SB), NOSPLIT, $0-28
	MOVQ   x+0(FP), SI
	MOVQ   blocks+8(FP), CX
	MOVQ   stride+16(FP), R8
	SHLQ   $2, R8
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7

sumBlocksLoop:
	VADDPS (SI), Y0, Y0
	VADDPS 32(SI), Y1, Y1
	VADDPS 64(SI), Y2, Y2
	VADDPS 96(SI), Y3, Y3
	VADDPS 128(SI), Y4, Y4
	VADDPS 160(SI), Y5, Y5
	VADDPS 192(SI), Y6, Y6
	VADDPS 224(SI), Y7, Y7
	ADDQ   R8, SI
	DECQ   CX
	JNZ    sumBlocksLoop

	VADDPS       Y1, Y0, Y0
	VADDPS       Y3, Y2, Y2
	VADDPS       Y5, Y4, Y4
	VADDPS       Y7, Y6, Y6
	VADDPS       Y2, Y0, Y0
	VADDPS       Y6, Y4, Y4
	VADDPS       Y4, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS       X1, X0, X0
	VHADDPS      X0, X0, X0
	VHADDPS      X0, X0, X0
	VMOVSS       X0, ret+24(FP)
	VZEROUPPER
	RET

// func nonzeroBits16(src *float32, blocks int, bits *uint16)
//
// For each of blocks blocks of 16 floats, writes a 16-bit word whose bit
// i is set if float i is not zero (of either sign; NaNs count as not
// zero): the floats' bits but the sign tested against zero. AVX-512.
TEXT ·nonzeroBits16(SB), NOSPLIT, $0-24
	MOVQ         src+0(FP), SI
	MOVQ         blocks+8(FP), CX
	MOVQ         bits+16(FP), DI
	MOVL         $0x7fffffff, AX
	VPBROADCASTD AX, Z1

nzLoop:
	VPTESTMD (SI), Z1, K1
	KMOVW    K1, AX
	MOVW     AX, (DI)
	ADDQ     $64, SI
	ADDQ     $2, DI
	DECQ     CX
	JNZ      nzLoop
	VZEROUPPER
	RET

// Qword indices of VPERMI2PD that pair the 128-bit lanes of two ZMM
// registers A and B within each 256-bit half: lo = [A0 B0 | A2 B2], hi =
// [A1 B1 | A3 B3] (lanes of 4 floats), as VPERM2F128 $0x20 and $0x31 do
// for YMM.
DATA pairLanesLo<>+0(SB)/8, $0
DATA pairLanesLo<>+8(SB)/8, $1
DATA pairLanesLo<>+16(SB)/8, $8
DATA pairLanesLo<>+24(SB)/8, $9
DATA pairLanesLo<>+32(SB)/8, $4
DATA pairLanesLo<>+40(SB)/8, $5
DATA pairLanesLo<>+48(SB)/8, $12
DATA pairLanesLo<>+56(SB)/8, $13
GLOBL pairLanesLo<>(SB), RODATA|NOPTR, $64
DATA pairLanesHi<>+0(SB)/8, $2
DATA pairLanesHi<>+8(SB)/8, $3
DATA pairLanesHi<>+16(SB)/8, $10
DATA pairLanesHi<>+24(SB)/8, $11
DATA pairLanesHi<>+32(SB)/8, $6
DATA pairLanesHi<>+40(SB)/8, $7
DATA pairLanesHi<>+48(SB)/8, $14
DATA pairLanesHi<>+56(SB)/8, $15
GLOBL pairLanesHi<>(SB), RODATA|NOPTR, $64

// TRANS2 transposes, in each 256-bit half independently, the 8×8 block
// whose rows are Z0..Z7 into Z8..Z15 (row i of the result is column i),
// as transpose8x8 does for YMM; Z30 and Z31 hold pairLanesLo and
// pairLanesHi.
#define TRANS2 \
	VUNPCKLPS Z1, Z0, Z8; \
	VUNPCKHPS Z1, Z0, Z9; \
	VUNPCKLPS Z3, Z2, Z10; \
	VUNPCKHPS Z3, Z2, Z11; \
	VUNPCKLPS Z5, Z4, Z12; \
	VUNPCKHPS Z5, Z4, Z13; \
	VUNPCKLPS Z7, Z6, Z14; \
	VUNPCKHPS Z7, Z6, Z15; \
	VSHUFPS   $0x44, Z10, Z8, Z0; \
	VSHUFPS   $0xEE, Z10, Z8, Z1; \
	VSHUFPS   $0x44, Z11, Z9, Z2; \
	VSHUFPS   $0xEE, Z11, Z9, Z3; \
	VSHUFPS   $0x44, Z14, Z12, Z4; \
	VSHUFPS   $0xEE, Z14, Z12, Z5; \
	VSHUFPS   $0x44, Z15, Z13, Z6; \
	VSHUFPS   $0xEE, Z15, Z13, Z7; \
	VMOVAPD   Z30, Z8; \
	VPERMI2PD Z4, Z0, Z8; \
	VMOVAPD   Z30, Z9; \
	VPERMI2PD Z5, Z1, Z9; \
	VMOVAPD   Z30, Z10; \
	VPERMI2PD Z6, Z2, Z10; \
	VMOVAPD   Z30, Z11; \
	VPERMI2PD Z7, Z3, Z11; \
	VMOVAPD   Z31, Z12; \
	VPERMI2PD Z4, Z0, Z12; \
	VMOVAPD   Z31, Z13; \
	VPERMI2PD Z5, Z1, Z13; \
	VMOVAPD   Z31, Z14; \
	VPERMI2PD Z6, Z2, Z14; \
	VMOVAPD   Z31, Z15; \
	VPERMI2PD Z7, Z3, Z15

// func toLanes512(src, dst *float32, channels, posStride int)
//
// toLanes for 8 positions (posStride floats apart at src, channels planes
// of 64 each) into dst's interior (lane layout), two ranks at a time: one
// ZMM load takes ranks r and r+1 of a position. AVX-512.
TEXT ·toLanes512(SB), NOSPLIT, $0-32
	MOVQ      src+0(FP), SI
	MOVQ      dst+8(FP), DI
	MOVQ      channels+16(FP), CX
	MOVQ      posStride+24(FP), R8
	SHLQ      $2, R8
	LEAQ      (R8)(R8*2), R12 // 3 positions
	VMOVDQU64 pairLanesLo<>(SB), Z30
	VMOVDQU64 pairLanesHi<>(SB), Z31

tlChannel:
	MOVQ $4, DX     // rank pairs
	MOVQ SI, R10    // ranks r, r+1 of position 0
	LEAQ 352(DI), R11 // dst interior: (10+1)·8 floats

tlPair:
	MOVQ      R10, AX
	VMOVUPS   (AX), Z0
	VMOVUPS   (AX)(R8*1), Z1
	VMOVUPS   (AX)(R8*2), Z2
	VMOVUPS   (AX)(R12*1), Z3
	LEAQ      (AX)(R8*4), AX
	VMOVUPS   (AX), Z4
	VMOVUPS   (AX)(R8*1), Z5
	VMOVUPS   (AX)(R8*2), Z6
	VMOVUPS   (AX)(R12*1), Z7
	TRANS2
	// Row f of rank r at dst + f·8 floats, of rank r+1 one padded rank
	// (80 floats) further.
	VMOVUPS       Y8, (R11)
	VEXTRACTF64X4 $1, Z8, 320(R11)
	VMOVUPS       Y9, 32(R11)
	VEXTRACTF64X4 $1, Z9, 352(R11)
	VMOVUPS       Y10, 64(R11)
	VEXTRACTF64X4 $1, Z10, 384(R11)
	VMOVUPS       Y11, 96(R11)
	VEXTRACTF64X4 $1, Z11, 416(R11)
	VMOVUPS       Y12, 128(R11)
	VEXTRACTF64X4 $1, Z12, 448(R11)
	VMOVUPS       Y13, 160(R11)
	VEXTRACTF64X4 $1, Z13, 480(R11)
	VMOVUPS       Y14, 192(R11)
	VEXTRACTF64X4 $1, Z14, 512(R11)
	VMOVUPS       Y15, 224(R11)
	VEXTRACTF64X4 $1, Z15, 544(R11)
	ADDQ          $64, R10  // two ranks of 8 floats
	ADDQ          $640, R11 // two padded ranks
	DECQ          DX
	JNZ           tlPair
	ADDQ          $256, SI  // next plane
	ADDQ          $3200, DI // next channel: 800 floats
	DECQ          CX
	JNZ           tlChannel
	VZEROUPPER
	RET

// MASK2 zeroes the floats of R where the 16 floats at M are not > 0
// (Z29 holds zeros; Z28 and K1 are clobbered).
#define MASK2(M, R) \
	VMOVUPS   M, Z28; \
	VCMPPS    $0x0e, Z29, Z28, K1; \
	VMOVAPS.Z R, K1, R

// func toLanesMasked512(src, mask, keep, dst *float32, channels, posStride int)
//
// toLanes512 of src with every float zeroed where the float at the same
// offset from mask is not > 0 (the ReLU's gradient mask); if keep is not
// nil, the masked values are also stored at the same offsets from keep.
// AVX-512.
TEXT ·toLanesMasked512(SB), NOSPLIT, $0-48
	MOVQ      src+0(FP), SI
	MOVQ      mask+8(FP), BX
	MOVQ      keep+16(FP), R9
	MOVQ      dst+24(FP), DI
	MOVQ      channels+32(FP), CX
	MOVQ      posStride+40(FP), R8
	SUBQ      SI, BX // mask and keep as offsets from src
	SUBQ      SI, R9
	VPXORD    Z29, Z29, Z29
	SHLQ      $2, R8
	LEAQ      (R8)(R8*2), R12 // 3 positions
	VMOVDQU64 pairLanesLo<>(SB), Z30
	VMOVDQU64 pairLanesHi<>(SB), Z31

tmChannel:
	MOVQ $4, DX     // rank pairs
	MOVQ SI, R10    // ranks r, r+1 of position 0
	LEAQ 352(DI), R11 // dst interior: (10+1)·8 floats

tmPair:
	MOVQ      R10, AX
	VMOVUPS   (AX), Z0
	VMOVUPS   (AX)(R8*1), Z1
	VMOVUPS   (AX)(R8*2), Z2
	VMOVUPS   (AX)(R12*1), Z3
	LEAQ      (AX)(R8*4), AX
	VMOVUPS   (AX), Z4
	VMOVUPS   (AX)(R8*1), Z5
	VMOVUPS   (AX)(R8*2), Z6
	VMOVUPS   (AX)(R12*1), Z7
	LEAQ      (R10)(BX*1), AX // the mask's rows
	MASK2((AX), Z0)
	MASK2((AX)(R8*1), Z1)
	MASK2((AX)(R8*2), Z2)
	MASK2((AX)(R12*1), Z3)
	LEAQ      (AX)(R8*4), AX
	MASK2((AX), Z4)
	MASK2((AX)(R8*1), Z5)
	MASK2((AX)(R8*2), Z6)
	MASK2((AX)(R12*1), Z7)
	MOVQ      keep+16(FP), AX
	TESTQ     AX, AX
	JZ        tmTrans
	LEAQ      (R10)(R9*1), AX // keep's rows
	VMOVUPS   Z0, (AX)
	VMOVUPS   Z1, (AX)(R8*1)
	VMOVUPS   Z2, (AX)(R8*2)
	VMOVUPS   Z3, (AX)(R12*1)
	LEAQ      (AX)(R8*4), AX
	VMOVUPS   Z4, (AX)
	VMOVUPS   Z5, (AX)(R8*1)
	VMOVUPS   Z6, (AX)(R8*2)
	VMOVUPS   Z7, (AX)(R12*1)

tmTrans:
	TRANS2
	// Row f of rank r at dst + f·8 floats, of rank r+1 one padded rank
	// (80 floats) further.
	VMOVUPS       Y8, (R11)
	VEXTRACTF64X4 $1, Z8, 320(R11)
	VMOVUPS       Y9, 32(R11)
	VEXTRACTF64X4 $1, Z9, 352(R11)
	VMOVUPS       Y10, 64(R11)
	VEXTRACTF64X4 $1, Z10, 384(R11)
	VMOVUPS       Y11, 96(R11)
	VEXTRACTF64X4 $1, Z11, 416(R11)
	VMOVUPS       Y12, 128(R11)
	VEXTRACTF64X4 $1, Z12, 448(R11)
	VMOVUPS       Y13, 160(R11)
	VEXTRACTF64X4 $1, Z13, 480(R11)
	VMOVUPS       Y14, 192(R11)
	VEXTRACTF64X4 $1, Z14, 512(R11)
	VMOVUPS       Y15, 224(R11)
	VEXTRACTF64X4 $1, Z15, 544(R11)
	ADDQ          $64, R10  // two ranks of 8 floats
	ADDQ          $640, R11 // two padded ranks
	DECQ          DX
	JNZ           tmPair
	ADDQ          $256, SI  // next plane
	ADDQ          $3200, DI // next channel: 800 floats
	DECQ          CX
	JNZ           tmChannel
	VZEROUPPER
	RET
