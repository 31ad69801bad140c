// sdkgen: generates the plugin's SDKs (Node.js, Go, Python) from schema.json with Pulumi's own code
// generators (pkg/v3 codegen), the same code `pulumi package gen-sdk` runs inside each language
// host. It exists because the Node.js language host built here (v3.68) does not implement
// GeneratePackage, so the CLI cannot generate; the generators themselves are plain Go packages.
//
//	sdkgen <schema.json> <out dir> [nodejs|go|python ...]
//
// Each language is written to <out dir>/<language>, replacing what was there.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/blang/semver"
	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// tool is the name the generators write into every file's "do not edit" header.
const tool = "pulumi-frontdoor sdkgen"

// noDependencies is the loader the binder asks for other packages' schemas: frontdoor's schema
// references none, so any request is a mistake in the schema, reported as such.
type noDependencies struct{}

func (noDependencies) LoadPackage(pkg string, _ *semver.Version) (*schema.Package, error) {
	return nil, fmt.Errorf("schema.json references package %q; the frontdoor schema must be self-contained", pkg)
}

func (l noDependencies) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return l.LoadPackage(d.Name, nil)
}

func (l noDependencies) LoadPackageReference(pkg string, v *semver.Version) (schema.PackageReference, error) {
	_, err := l.LoadPackage(pkg, v)
	return nil, err
}

func (l noDependencies) LoadPackageReferenceV2(
	_ context.Context, d *schema.PackageDescriptor,
) (schema.PackageReference, error) {
	return l.LoadPackageReference(d.Name, nil)
}

// bind validates the spec against Pulumi's metaschema and binds it; a fresh bind per language,
// because each generator records its language's settings on the package it is given.
func bind(raw []byte) (*schema.Package, error) {
	var spec schema.PackageSpec
	if err := json.Unmarshal(raw, &spec); err != nil {
		return nil, fmt.Errorf("schema.json: %w", err)
	}
	pkg, diags, err := schema.BindSpec(spec, noDependencies{}, schema.ValidationOptions{})
	if err != nil {
		return nil, err
	}
	if diags.HasErrors() {
		return nil, fmt.Errorf("schema.json does not bind: %s", diags.Error())
	}
	return pkg, nil
}

func generate(language string, pkg *schema.Package) (map[string][]byte, error) {
	switch language {
	case "nodejs":
		return nodejs.GeneratePackage(tool, pkg, nil, nil, false, noDependencies{})
	case "go":
		return gogen.GeneratePackage(tool, pkg, nil)
	case "python":
		return python.GeneratePackage(tool, pkg, nil, noDependencies{})
	}
	return nil, fmt.Errorf("unknown language %q (nodejs, go, python)", language)
}

func write(dir string, files map[string][]byte) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	for name, content := range files {
		file := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(file, content, 0o644); err != nil {
			return err
		}
	}
	return nil
}

func run(args []string) error {
	if len(args) < 2 {
		return fmt.Errorf("usage: sdkgen <schema.json> <out dir> [nodejs|go|python ...]")
	}
	raw, err := os.ReadFile(args[0])
	if err != nil {
		return err
	}
	languages := args[2:]
	if len(languages) == 0 {
		languages = []string{"nodejs", "go", "python"}
	}
	for _, language := range languages {
		pkg, err := bind(raw)
		if err != nil {
			return err
		}
		files, err := generate(language, pkg)
		if err != nil {
			return fmt.Errorf("%s: %w", language, err)
		}
		if err := write(filepath.Join(args[1], language), files); err != nil {
			return fmt.Errorf("%s: %w", language, err)
		}
	}
	return nil
}

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintf(os.Stderr, "sdkgen: %v\n", err)
		os.Exit(1)
	}
}
