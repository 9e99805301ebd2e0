module zablab

go 1.26

require (
	github.com/anishathalye/porcupine v1.3.1
	github.com/go-zookeeper/zk v1.0.4
	github.com/google/go-cmp v0.7.0
	github.com/sirupsen/logrus v1.10.2
	github.com/spf13/pflag v1.0.10
	golang.org/x/sys v0.13.0
)
