# Two commands on a fresh machine: `make report` and `make test`. Both install what they need.
SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
DATA ?= Data/sample
OUT ?= reports

.PHONY: deps build report test bench clean

# libcsv-dev is the only system package the build needs (Debian's, no pkg-config file).
deps:
	@if [ ! -f /usr/include/csv.h ]; then \
		echo "installing libcsv-dev"; \
		$(SUDO) apt-get update && $(SUDO) apt-get install -y libcsv-dev; \
	fi

build: deps
	$(SWIFT) build -c release

report: build
	.build/release/refund-cost validate --data $(DATA) --as-of 2026-11-01

test: deps
	$(SWIFT) test

# Validation speed on a generated 1-million-row cost file, beside libcsv's raw parse rate.
bench: build
	bench/validate-bench.sh

clean:
	rm -rf .build
