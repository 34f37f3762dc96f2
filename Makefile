# The two commands of the README's quick start, and a few more.
#   make demo   a dry run on a bundled sample screenshot: reads the board,
#               solves it, writes the annotated picture and the storyboard
#               into dry-run/
#   make test   runs the whole suite (format, lints, unit, end-to-end)
# Both first install the Debian packages they need (scripts/install-deps
# says which).

CARGO ?= cargo
DEMO_SAMPLE := samples/mid-1x-window.png

.PHONY: deps demo test test-native test-windows windows dist bench

deps:
	@scripts/install-deps

# The demo builds the profile the tests use (dependencies optimised, see
# Cargo.toml), so that `make test` after it compiles only the tests and
# the lints; `make bench` builds the release profile.
demo: deps
	$(CARGO) build
	./target/debug/bot --dry-run $(DEMO_SAMPLE) --out dry-run

test: test-native test-windows

test-native: deps
	$(CARGO) fmt --check
	$(CARGO) clippy --all-targets -- -D warnings
	$(CARGO) test

# Builds bot.exe and the test suite for Windows, and runs them under Wine
# (scripts/windows-test says what it checks).
test-windows:
	scripts/windows-test

windows:
	scripts/windows-build

dist:
	scripts/dist

# make bench BENCH_ARGS="--boards 20 --cap 5" for a quick run.
bench: deps
	$(CARGO) build --release
	./target/release/bot bench $(BENCH_ARGS)
