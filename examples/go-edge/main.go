// A Go program over the frontdoor plugin (pulumi-resource-frontdoor), through the Go SDK generated
// from schema.json (sdk/native/go; this module's go.mod points at it with a replace). It declares
// an app's access: single sign-on on the frontdoor, and on the OpenZiti network a user identity
// enrolled by one-time token, the app's service and the policy that lets staff dial it.
// Connection settings: frontdoor:apiUrl, frontdoor:frontdoorId, frontdoor:token (--secret),
// frontdoor:edgeUrl, frontdoor:edgeUsername, frontdoor:edgePassword (--secret), frontdoor:caBundle;
// the SSO client secret from `pulumi config set --secret ssoClientSecret ...`.
package main

import (
	"github.com/pulumi-frontdoor/pulumi-frontdoor/sdk/go/frontdoor"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cfg := config.New(ctx, "")
		prefix := cfg.Get("namePrefix")
		if prefix == "" {
			prefix = "go-edge"
		}

		sso, err := frontdoor.NewAuthProvider(ctx, "corp-sso", &frontdoor.AuthProviderArgs{
			Name: pulumi.String(prefix + "-sso"),
			Type: pulumi.String("OIDC"),
			Data: frontdoor.OidcDataArgs{
				Issuer:        pulumi.String("https://login.example.com/realms/corp"),
				Client_id:     pulumi.String("frontdoor"),
				Client_secret: cfg.RequireSecret("ssoClientSecret"),
				Scopes:        pulumi.StringArray{pulumi.String("openid"), pulumi.String("email")},
			},
		})
		if err != nil {
			return err
		}

		// A user identity (the default type).
		alice, err := frontdoor.NewIdentity(ctx, "alice", &frontdoor.IdentityArgs{
			Name:           pulumi.String(prefix + "-alice"),
			RoleAttributes: pulumi.StringArray{pulumi.String("staff")},
			Enrollment:     &frontdoor.IdentityEnrollmentArgs{Ott: pulumi.Bool(true)},
		})
		if err != nil {
			return err
		}

		app, err := frontdoor.NewService(ctx, "app", &frontdoor.ServiceArgs{
			Name:               pulumi.String(prefix + "-app"),
			RoleAttributes:     pulumi.StringArray{pulumi.String("apps")},
			EncryptionRequired: pulumi.Bool(true),
		})
		if err != nil {
			return err
		}

		// Staff may dial the app: the service by id, the identities by attribute.
		dial, err := frontdoor.NewServicePolicy(ctx, "app-dial", &frontdoor.ServicePolicyArgs{
			Name:          pulumi.String(prefix + "-app-dial"),
			Type:          pulumi.String("Dial"),
			IdentityRoles: pulumi.StringArray{pulumi.String("#staff")},
			ServiceRoles:  pulumi.StringArray{pulumi.Sprintf("@%s", app.ID())},
		})
		if err != nil {
			return err
		}

		// A function through the plugin's Invoke: the service looked up by its name.
		found := frontdoor.LookupServiceOutput(ctx, frontdoor.LookupServiceOutputArgs{Name: app.Name})

		ctx.Export("ssoId", sso.ID())
		ctx.Export("aliceId", alice.ID())
		ctx.Export("aliceEnrollmentJwt", alice.EnrollmentJwt) // secret: the SDK marks it so
		ctx.Export("appId", app.ID())
		ctx.Export("appFoundId", found.Id())
		ctx.Export("dialId", dial.ID())
		return nil
	})
}
