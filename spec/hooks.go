package spec

// The hold-before-commit hook of WRITE-013, by which the certifier changes
// a file at the moment an implementation has staged its write: the
// implementation and the runner both take the names from here.
const (
	// HoldFeature is listed in "version --json-output" by an
	// implementation that honours the hook.
	HoldFeature = "hold-before-commit"
	// HoldDirEnv names the folder the hook works in.
	HoldDirEnv = "BLOCKPATCH_TEST_HOLD_DIR"
	// HoldStaged is created there once the write is staged.
	HoldStaged = "staged"
	// HoldResume appears there when the implementation may go on.
	HoldResume = "resume"
)
