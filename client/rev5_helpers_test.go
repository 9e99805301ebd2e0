package client_test

import (
	"fmt"

	"zablab/client"
	"zablab/mwzookeeper"
)

func client_DigestACL(i int) []mwzookeeper.ACL {
	return client.DigestACL(mwzookeeper.PermAll, fmt.Sprintf("user%d", i), "secret")
}
