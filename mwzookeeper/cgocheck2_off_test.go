//go:build !goexperiment.cgocheck2

package mwzookeeper

const cgocheck2 = false
