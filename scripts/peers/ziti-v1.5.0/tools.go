//go:build tools

package tools

import _ "github.com/openziti/ziti/ziti"
