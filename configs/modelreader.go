package configs

import "errors"

// A ModelReader reads the one model that .amxmi files and folders make
// (a folder stands for its .amxmi files, and the files of a model are one
// model, as APP4MC loads them): it returns the files it read, in order,
// the system, and what it resolved by conventions.
type ModelReader func(paths []string) (files []string, sys *System, warns []Warning, err error)

// modelReader is the registered reader (RegisterModelReader).
var modelReader ModelReader

// RegisterModelReader makes r the reader of the Amalthea models that
// configurations name: LoadFile given an .amxmi file or a folder,
// LoadModel, and the model: key of a YAML configuration (Load, LoadFile,
// a sweep's base). The reader is configs/amalthea's, which builds this
// package's System and so cannot be imported by it: configs/amalthea
// registers it when a program imports that package, as image/png
// registers its format with the image package. Call it from an init
// function.
func RegisterModelReader(r ModelReader) { modelReader = r }

// readRegisteredModel reads a model through the registered reader.
func readRegisteredModel(paths []string) ([]string, *System, []Warning, error) {
	if modelReader == nil {
		return nil, nil, nil, errors.New("reading an Amalthea model needs the package configs/amalthea: import it in the program")
	}
	return modelReader(paths)
}
