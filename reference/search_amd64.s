#include "textflag.h"

// func pairIndexAVX2(a, b *byte, blocks int, c1, c2 byte) int
//
// Returns the least k < blocks*32 with a[k] == c1 and b[k] == c2, or -1:
// 32 positions per round, each a comparison of both streams with the
// broadcast bytes, the two masks ANDed.
TEXT ·pairIndexAVX2(SB), NOSPLIT, $0-40
	MOVQ	a+0(FP), SI
	MOVQ	b+8(FP), DI
	MOVQ	blocks+16(FP), CX
	SHLQ	$5, CX
	MOVBLZX	c1+24(FP), AX
	MOVBLZX	c2+25(FP), BX
	MOVQ	AX, X0
	VPBROADCASTB	X0, Y0
	MOVQ	BX, X1
	VPBROADCASTB	X1, Y1
	XORQ	DX, DX

loop:
	CMPQ	DX, CX
	JAE	none
	VMOVDQU	(SI)(DX*1), Y2
	VMOVDQU	(DI)(DX*1), Y3
	VPCMPEQB	Y0, Y2, Y2
	VPCMPEQB	Y1, Y3, Y3
	VPAND	Y2, Y3, Y2
	VPMOVMSKB	Y2, R8
	TESTL	R8, R8
	JNZ	found
	ADDQ	$32, DX
	JMP	loop

found:
	BSFL	R8, R8
	ADDQ	R8, DX
	VZEROUPPER
	MOVQ	DX, ret+32(FP)
	RET

none:
	VZEROUPPER
	MOVQ	$-1, ret+32(FP)
	RET
