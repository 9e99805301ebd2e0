# Real clients' own test suites (go-zookeeper/zk, kazoo) against our server and
# against Apache ZooKeeper 3.8 (Debian), one summary line each (interop/suites/README.md).
.PHONY: suites

SUITES  ?= gozk kazoo
SERVERS ?= ours zookeeper

suites: ## clients' test suites on ours and on ZooKeeper: make suites [SUITES="gozk kazoo"] [SERVERS="ours zookeeper"]
	@mkdir -p bin
	$(GO) build -o bin/ ./cmd/mwzk-server
	@for s in $(SUITES); do for t in $(SERVERS); do ./interop/suites/run.sh $$s $$t || exit 1; done; done
