// Package layering holds the test that keeps hetmap's packages in their
// layers (DEVELOPERS.md): every package imports only packages of lower
// layers, and the analysis leaves import none of each other. It has no
// code.
package layering
