.PHONY: run

run: ## the main job: 1,000 simulated Zab ensembles under faults, with a verdict
	$(GO) run ./cmd/zab-sim --seeds 1000 --first 1
