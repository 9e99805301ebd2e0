# The benchmark side by side with Apache ZooKeeper (instructors and developers: not in the handout).
.PHONY: bench

BENCH_OUT ?= bench-results.json
BASELINE  ?=
DURATION  ?= 10s
RUNS      ?= 2
NO_FSYNC  ?=

bench: ## our ensemble against Apache ZooKeeper 3.8 (Debian) side by side: make bench [BASELINE=file] [DURATION=10s] [RUNS=2] [NO_FSYNC=1]
	@mkdir -p bin
	$(GO) build -o bin/ ./cmd/mwzk-server ./cmd/mwzk-bench
	./bin/mwzk-bench --server bin/mwzk-server --duration $(DURATION) --runs $(RUNS) --out $(BENCH_OUT) $(if $(BASELINE),--baseline $(BASELINE)) $(if $(NO_FSYNC),--no-fsync)
