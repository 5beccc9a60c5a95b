package mutants

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
)

// Builder builds mutant binaries of the reference CLI. It never edits the
// module: each mutant's patched files go to a folder of their own, named
// in a go build -overlay file.
type Builder struct {
	// Module is the module's root folder, whose files the diffs patch.
	Module string
	// Dir is where patched files and binaries are written.
	Dir string
	// Package is the command a mutant binary is built from; empty means
	// Blockpatch.Package.
	Package string
}

func (b *Builder) pkg() string {
	if b.Package == "" {
		return Blockpatch.Package
	}
	return b.Package
}

// ErrBuild is wrapped by Build when a mutant applies but does not compile:
// such a mutant is not counted.
var ErrBuild = errors.New("the mutant does not compile")

// ModuleRoot returns the root folder of the main module, as go env GOMOD
// reports it from the current folder.
func ModuleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return "", errors.New("not inside a Go module")
	}
	return filepath.Dir(gomod), nil
}

// Patch applies m's diff to the module's files and returns the patched
// contents by slash-separated path. A diff that no longer applies is an
// error wrapping ErrStale.
func (b *Builder) Patch(m Mutant) (map[string][]byte, error) {
	_, files, err := ParseDiff(m.Diff)
	if err != nil {
		return nil, fmt.Errorf("mutant %s: %w", m.Name, err)
	}
	out := map[string][]byte{}
	for _, fd := range files {
		src, ok := out[fd.Path]
		if !ok {
			if src, err = os.ReadFile(filepath.Join(b.Module, filepath.FromSlash(fd.Path))); err != nil {
				return nil, fmt.Errorf("mutant %s: %w", m.Name, err)
			}
		}
		if out[fd.Path], err = fd.Apply(src); err != nil {
			return nil, fmt.Errorf("mutant %s: %w", m.Name, err)
		}
	}
	return out, nil
}

// Build patches and builds m, and returns the binary's path. Errors wrap
// ErrStale for a diff that does not apply and ErrBuild for one that does
// not compile.
func (b *Builder) Build(ctx context.Context, m Mutant) (string, error) {
	patched, err := b.Patch(m)
	if err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp(b.Dir, "mutant-")
	if err != nil {
		return "", err
	}
	overlay := map[string]map[string]string{"Replace": {}}
	for p, data := range patched {
		tmp := filepath.Join(dir, strings.ReplaceAll(p, "/", "_"))
		if err := os.WriteFile(tmp, data, 0o644); err != nil {
			return "", err
		}
		overlay["Replace"][filepath.Join(b.Module, filepath.FromSlash(p))] = tmp
	}
	ov, _ := json.Marshal(overlay)
	ovFile := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(ovFile, ov, 0o644); err != nil {
		return "", err
	}
	bin := filepath.Join(dir, path.Base(b.pkg()))
	cmd := exec.CommandContext(ctx, "go", "build", "-overlay", ovFile, "-ldflags=-s -w", "-o", bin, b.pkg())
	cmd.Dir = b.Module
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		os.RemoveAll(dir)
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", fmt.Errorf("mutant %s: %w: %s", m.Name, ErrBuild, strings.TrimSpace(out.String()))
	}
	return bin, nil
}
