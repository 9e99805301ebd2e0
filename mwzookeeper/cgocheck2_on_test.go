//go:build goexperiment.cgocheck2

package mwzookeeper

// cgocheck2 says the test binary was built with GOEXPERIMENT=cgocheck2.
const cgocheck2 = true
