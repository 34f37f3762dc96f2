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
# Cargo.toml) with the compiler driver the tests use, clippy's, where the
# toolchain has it (scripts/lint-driver), so that `make test` after it
# compiles only the tests; `make bench` builds the release profile.
demo: deps
	RUSTC_WORKSPACE_WRAPPER=$$(scripts/lint-driver || true) $(CARGO) build
	./target/debug/bot --dry-run $(DEMO_SAMPLE) --out dry-run

# The native half and the Windows half (bot.exe and its tests under Wine,
# scripts/windows-test says what it checks), the Windows build beside the
# native run (scripts/test says why).
test:
	scripts/test

test-native:
	scripts/test --native

test-windows:
	scripts/test --windows

windows:
	scripts/windows-build

dist:
	scripts/dist

# make bench BENCH_ARGS="--boards 20 --cap 5" for a quick run.
bench: deps
	$(CARGO) build --release
	./target/release/bot bench $(BENCH_ARGS)
