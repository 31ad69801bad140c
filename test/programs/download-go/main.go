// One auth provider through the frontdoor plugin, which the CLI downloads from the URL the generated
// Go SDK names (test/plugin-binaries.test.ts generates it with its own server's URL, and writes the
// go.mod from examples/go-edge's, its SDK's module path and its replace).
package main

import (
	"frontdoor.local/sdk/go/frontdoor"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cfg := config.New(ctx, "")
		sso, err := frontdoor.NewAuthProvider(ctx, "sso", &frontdoor.AuthProviderArgs{
			Name: pulumi.String("download-go-sso"),
			Type: pulumi.String("OIDC"),
			Data: frontdoor.OidcDataArgs{
				Issuer:        pulumi.String("https://login.example.com/realms/corp"),
				Client_id:     pulumi.String("frontdoor"),
				Client_secret: cfg.RequireSecret("ssoClientSecret"),
			},
		})
		if err != nil {
			return err
		}
		ctx.Export("ssoId", sso.ID())
		return nil
	})
}
