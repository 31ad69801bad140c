//go:build tools

package tools

import _ "github.com/rhysd/actionlint/cmd/actionlint"
