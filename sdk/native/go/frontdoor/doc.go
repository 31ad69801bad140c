// Zero-trust access configuration as code: NetFoundry Frontdoor (auth providers, client certificates, certificate request tokens, custom frontends) and OpenZiti Edge management (identities, auth policies, edge router policies, CAs), as a Pulumi dynamic provider for TypeScript.
package frontdoor
