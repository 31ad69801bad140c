// programgen: a Node.js language host that only generates programs. The Pulumi CLI writes the
// program of `pulumi import --out x.ts` (and `pulumi convert`) by calling GenerateProgram on the
// project's language host, `pulumi-language-nodejs`. The host built here (v3.68, the last one inside
// sdk/v3; its own module is refused by the module proxy) predates that RPC, so the CLI cannot write
// TypeScript with it. This binary answers GenerateProgram with pkg/v3 v3.259.0's TypeScript program
// generator (codegen/nodejs), which is what the Node.js host shipped with CLI v3.259.0 runs; every
// other RPC is unimplemented, so it is put first on PATH only for `pulumi import`, never to run a
// program. Users of a released Pulumi CLI do not need it: its bundled Node.js host does the same.
package main

import (
	"context"
	"flag"
	"fmt"
	"strings"

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

type host struct {
	pulumirpc.UnimplementedLanguageRuntimeServer
}

func (host) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: "3.259.0"}, nil
}

// GenerateProgram binds the PCL the CLI sends (schemas through the CLI's loader) and generates
// TypeScript, as the released Node.js host does.
func (host) GenerateProgram(
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
	files, genDiags, err := nodejs.GenerateProgram(program)
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
	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Init: func(srv *grpc.Server) error {
			pulumirpc.RegisterLanguageRuntimeServer(srv, host{})
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
