# The two commands of the README's quick start, and a few more.
#   make demo   runs the main job on a bundled example
#   make test   runs the whole suite (format, lints, unit, end-to-end)
# Both first install the Debian packages they need (scripts/install-deps
# says which).

CARGO ?= cargo
REAL_BOARD := GGGGBOYO,RORGYGBY,RRBGOORG,BRBOBYRG,BRYBBRGG,OYGGRORG

.PHONY: deps demo test bench

deps:
	@scripts/install-deps

demo: deps
	$(CARGO) build --release
	./target/release/bot solve --show-boards "$(REAL_BOARD)"

test: deps
	$(CARGO) fmt --check
	$(CARGO) clippy --all-targets -- -D warnings
	$(CARGO) test

# make bench BENCH_ARGS="--boards 20 --cap 5" for a quick run.
bench: deps
	$(CARGO) build --release
	./target/release/bot bench $(BENCH_ARGS)
