// programgen: a language host (Node.js or Go) that only generates programs. The Pulumi CLI writes the
// program of `pulumi import --out x.ts` (and `pulumi convert`) by calling GenerateProgram on the
// project's language host, `pulumi-language-<runtime>` from Pulumi.yaml. The hosts built here
// (Node.js v3.68, Go v3.60: the last ones inside sdk/v3; their own modules are refused by the module
// proxy) predate that RPC, so the CLI cannot write TypeScript or Go with them. This binary answers
// GenerateProgram with pkg/v3 v3.276.0's program generator of the language its executable's name
// says (pulumi-language-nodejs: codegen/nodejs, pulumi-language-go: codegen/go; the names it is
// linked under), which is what the hosts shipped with CLI v3.276.0 run; every other RPC is
// unimplemented, so it is put first on PATH only for `pulumi import`, never to run a program. Users
// of a released Pulumi CLI do not need it: its bundled hosts do the same.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/hcl2/syntax"
	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/pcl"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/cmdutil"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/emptypb"
)

// generator writes a program's files from the bound PCL.
type generator func(*pcl.Program) (map[string][]byte, hcl.Diagnostics, error)

// generators by language, as in the host's executable name pulumi-language-<language>[-programgen].
var generators = map[string]generator{
	"nodejs": nodejs.GenerateProgram,
	"go":     gogen.GenerateProgram,
}

// languageOf is the language of the host this executable stands in for: its name, as the CLI
// starts it from PATH (.peers/programgen/pulumi-language-go) or as built (pulumi-language-nodejs-programgen).
func languageOf(executable string) string {
	name := strings.TrimSuffix(filepath.Base(executable), "-programgen")
	return strings.TrimPrefix(name, "pulumi-language-")
}

type host struct {
	pulumirpc.UnimplementedLanguageRuntimeServer
	generate generator
}

func (host) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: "3.276.0"}, nil
}

// GenerateProgram binds the PCL the CLI sends (schemas through the CLI's loader) and generates the
// program, as the released host of the language does.
func (h host) GenerateProgram(
	_ context.Context, req *pulumirpc.GenerateProgramRequest,
) (*pulumirpc.GenerateProgramResponse, error) {
	loader, err := schema.NewLoaderClient(req.LoaderTarget)
	if err != nil {
		return nil, err
	}
	defer loader.Close()

	parser := syntax.NewParser()
	for path, contents := range req.Source {
		if err := parser.ParseFile(strings.NewReader(contents), path); err != nil {
			return nil, err
		}
		if parser.Diagnostics.HasErrors() {
			return nil, parser.Diagnostics
		}
	}
	options := []pcl.BindOption{pcl.PreferOutputVersionedInvokes}
	if !req.Strict {
		options = append(options, pcl.NonStrictBindOptions()...)
	}
	program, diags, err := pcl.BindProgram(parser.Files, schema.NewCachedLoader(loader), options...)
	if err != nil {
		return nil, err
	}
	if diags.HasErrors() || program == nil {
		return &pulumirpc.GenerateProgramResponse{Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(diags)}, nil
	}
	files, genDiags, err := h.generate(program)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.GenerateProgramResponse{
		Source:      files,
		Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(append(diags, genDiags...)),
	}, nil
}

func main() {
	// The flags every language host is started with; none matters to program generation.
	flag.String("tracing", "", "ignored")
	flag.String("root", "", "ignored")
	flag.Parse()
	language := languageOf(os.Args[0])
	generate, known := generators[language]
	if !known {
		cmdutil.Exit(fmt.Errorf("%s: no program generator for language %q", os.Args[0], language))
	}
	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Init: func(srv *grpc.Server) error {
			pulumirpc.RegisterLanguageRuntimeServer(srv, host{generate: generate})
			return nil
		},
	})
	if err != nil {
		cmdutil.Exit(fmt.Errorf("could not start the program generator: %w", err))
	}
	fmt.Printf("%d\n", handle.Port)
	if err := <-handle.Done; err != nil {
		cmdutil.Exit(err)
	}
}
