// Package pdfuzz is the PatchDIFF part of the fuzz tree: a generator of
// runtime calls (Spec, Random, Build, Shrink), the differential campaign
// of a PatchDIFF applier against the reference through the adapter
// protocol (Campaign, and Main for cmd/patchdiff-fuzz), and, in its tests,
// the gopter properties and native fuzz targets of the reference runtime.
//
// The campaign shares its core with blockpatch's (package fuzz) through
// fuzz/internal/campaign: iteration k of a seed always draws the same
// call, shards split the iterations, each disagreement is grouped by its
// first difference, shrunk and written as a case file fuzz/NAME.json that
// pdcases loads. The applier's result is judged by the case the
// reference's result makes (pdcases' Compare), so a disagreement is
// exactly what the written case will fail on. fuzz/README.md lists the
// properties and targets with their commands.
package pdfuzz
