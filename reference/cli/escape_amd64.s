#include "textflag.h"

// func plainAVX2(p *byte, blocks int) int
//
// Returns the least k < blocks*32 such that p[k] needs escaping in a JSON
// string as appendJSONBody writes it (below 0x20, from 0x80 on, or one of
// " \ < > &), or blocks*32: 32 bytes per round, a signed comparison with
// 0x20 (bytes from 0x80 on are negative) and five equalities, ORed.
TEXT ·plainAVX2(SB), NOSPLIT, $0-24
	MOVQ	p+0(FP), SI
	MOVQ	blocks+8(FP), CX
	SHLQ	$5, CX
	// VEX-encoded moves only, as in reference/search_amd64.s: a legacy
	// SSE instruction after a 256-bit one costs a state transition.
	MOVL	$0x20, AX
	VMOVQ	AX, X0
	VPBROADCASTB	X0, Y0
	MOVL	$0x22, AX
	VMOVQ	AX, X1
	VPBROADCASTB	X1, Y1
	MOVL	$0x5c, AX
	VMOVQ	AX, X2
	VPBROADCASTB	X2, Y2
	MOVL	$0x3c, AX
	VMOVQ	AX, X3
	VPBROADCASTB	X3, Y3
	MOVL	$0x3e, AX
	VMOVQ	AX, X4
	VPBROADCASTB	X4, Y4
	MOVL	$0x26, AX
	VMOVQ	AX, X5
	VPBROADCASTB	X5, Y5
	XORQ	DX, DX

loop:
	CMPQ	DX, CX
	JAE	none
	VMOVDQU	(SI)(DX*1), Y6
	VPCMPGTB	Y6, Y0, Y7
	VPCMPEQB	Y6, Y1, Y8
	VPCMPEQB	Y6, Y2, Y9
	VPCMPEQB	Y6, Y3, Y10
	VPCMPEQB	Y6, Y4, Y11
	VPCMPEQB	Y6, Y5, Y12
	VPOR	Y8, Y7, Y7
	VPOR	Y10, Y9, Y9
	VPOR	Y12, Y11, Y11
	VPOR	Y9, Y7, Y7
	VPOR	Y11, Y7, Y7
	VPMOVMSKB	Y7, R8
	TESTL	R8, R8
	JNZ	found
	ADDQ	$32, DX
	JMP	loop

found:
	BSFL	R8, R8
	ADDQ	R8, DX
	VZEROUPPER
	MOVQ	DX, ret+16(FP)
	RET

none:
	VZEROUPPER
	MOVQ	CX, ret+16(FP)
	RET
