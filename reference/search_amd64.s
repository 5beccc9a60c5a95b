#include "textflag.h"

// func pairIndexAVX2(a, b, c *byte, blocks int, c1, c2, c3 byte) int
//
// Returns the least k < blocks*32 with a[k] == c1, b[k] == c2 and
// c[k] == c3, or -1: 32 positions per round, each a comparison of the
// three streams with the broadcast bytes, the masks ANDed.
TEXT ·pairIndexAVX2(SB), NOSPLIT, $0-48
	MOVQ	a+0(FP), SI
	MOVQ	b+8(FP), DI
	MOVQ	c+16(FP), R9
	MOVQ	blocks+24(FP), CX
	SHLQ	$5, CX
	MOVBLZX	c1+32(FP), AX
	MOVBLZX	c2+33(FP), BX
	MOVBLZX	c3+34(FP), R10
	// VEX-encoded moves: a legacy SSE instruction after a 256-bit one
	// costs a state transition, 280 ns a call on the VM of issue 23.
	VMOVQ	AX, X0
	VMOVQ	BX, X1
	VMOVQ	R10, X4
	VPBROADCASTB	X0, Y0
	VPBROADCASTB	X1, Y1
	VPBROADCASTB	X4, Y4
	XORQ	DX, DX

loop:
	CMPQ	DX, CX
	JAE	none
	VPCMPEQB	(SI)(DX*1), Y0, Y2
	VPCMPEQB	(DI)(DX*1), Y1, Y3
	VPCMPEQB	(R9)(DX*1), Y4, Y5
	VPAND	Y2, Y3, Y2
	VPAND	Y2, Y5, Y2
	VPMOVMSKB	Y2, R8
	TESTL	R8, R8
	JNZ	found
	ADDQ	$32, DX
	JMP	loop

found:
	BSFL	R8, R8
	ADDQ	R8, DX
	VZEROUPPER
	MOVQ	DX, ret+40(FP)
	RET

none:
	VZEROUPPER
	MOVQ	$-1, ret+40(FP)
	RET
