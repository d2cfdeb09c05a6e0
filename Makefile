# Two commands on a fresh machine: `make report` and `make test`. Both install what they need.
SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
DATA ?= Data/sample
OUT ?= out

.PHONY: deps test-deps page-deps build install report test lint page-check fuzz bench bench-scale bench-respond bench-spark bench-scaleout bench-publish bench-allocation bench-fetch bench-validate clean static-build spark-deps \
	spark-report spark-test

# The build needs seven Debian packages: libcsv-dev (CSV parsing), libssl-dev (SHA-256 and
# signatures), zlib1g-dev (the tool's own gzip files), libisal-dev (reading gzip inputs),
# libcurl4-openssl-dev (the App Store Server API), and libpq-dev and libsqlite3-dev (publish
# into PostgreSQL or SQLite).
deps:
	@if [ ! -f /usr/include/csv.h ] || [ ! -f /usr/include/openssl/evp.h ] || [ ! -f /usr/include/zlib.h ] \
		|| [ -z "$$(ls /usr/include/curl/curl.h /usr/include/*/curl/curl.h 2>/dev/null)" ] \
		|| [ ! -f /usr/include/postgresql/libpq-fe.h ] || [ ! -f /usr/include/sqlite3.h ] \
		|| [ ! -f /usr/include/isa-l/igzip_lib.h ]; then \
		echo "installing libcsv-dev, libssl-dev, zlib1g-dev, libisal-dev, libcurl4-openssl-dev, libpq-dev and libsqlite3-dev"; \
		$(SUDO) apt-get update && $(SUDO) apt-get install -y libcsv-dev libssl-dev zlib1g-dev libisal-dev \
			libcurl4-openssl-dev libpq-dev libsqlite3-dev; \
	fi

# The publish tests start a real PostgreSQL server of their own (Debian's postgresql package;
# nothing is started at install time that they use).
test-deps:
	@if [ -z "$$(ls /usr/lib/postgresql/*/bin/initdb 2>/dev/null)" ]; then \
		echo "installing postgresql (for the publish tests)"; \
		$(SUDO) apt-get update && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql; \
	fi
	@if ! command -v strace >/dev/null 2>&1; then \
		echo "installing strace (a respond test checks which files a run opens)"; \
		$(SUDO) apt-get update && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y strace; \
	fi

# The page check opens report.html in headless Chromium (Debian's chromium package).
page-deps:
	@if ! command -v chromium >/dev/null 2>&1; then \
		echo "installing chromium (for the report page check)"; \
		$(SUDO) apt-get update && $(SUDO) apt-get install -y chromium; \
	fi

build: deps
	$(SWIFT) build -c release --product refund-cost
	@echo "built .build/release/refund-cost (make install PREFIX=/usr/local puts it in PREFIX/bin)"

# Copies the release binary to PREFIX/bin (default /usr/local/bin); it needs libcsv, libssl,
# zlib and libcurl at run time, which `make deps` installed.
PREFIX ?= /usr/local
install: build
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 0755 .build/release/refund-cost $(DESTDIR)$(PREFIX)/bin/refund-cost

# The monthly report of the sample's latest complete month, into out/ (not in git; reports/2026-10/
# is the committed copy, kept equal to the test golden).
# The sample is signed with its own test chain: its root is trusted by name, never by default.
MONTH ?= 2026-10
ARGS ?= --trust-root $(DATA)/test-root.der
report: build
	.build/release/refund-cost report --data $(DATA) --month $(MONTH) --out $(OUT) $(ARGS)

# Lint first (the toolchain's swift-format, configuration in .swift-format), then a build that
# refuses an import of a stage not declared as a dependency, then every test.
test: deps test-deps lint
	$(SWIFT) build --explicit-target-dependency-import-check error
	$(SWIFT) test --disable-xctest
	python3 scaleout/tests/test_steps.py .build/debug/refund-cost
	$(MAKE) page-check

# The committed page (equal to the golden, which the tests compare with what the code writes)
# rendered at 1280 px: not blank, every chart, no horizontal overflow, no request.
page-check: page-deps
	python3 Tests/page/check_report_page.py reports/2026-10/report.html

# Past one machine: the binary Spark executors run (the Swift standard library linked in, so a
# worker needs only libc, libcsv, libssl, zlib, libcurl, libpq and SQLite), Java and the pinned PySpark, the driver.
STATIC_BINARY := .build/static/release/refund-cost
SPARK_PYTHON := scaleout/.venv/bin/python
static-build: deps
	$(SWIFT) build -c release --static-swift-stdlib --build-path .build/static --product refund-cost

spark-deps:
	@if ! command -v java >/dev/null 2>&1; then \
		echo "installing Java 17 (for Spark)"; \
		$(SUDO) apt-get update && $(SUDO) apt-get install -y openjdk-17-jre-headless; \
	fi
	@if ! $(SPARK_PYTHON) -c "import pyspark" 2>/dev/null; then \
		python3 -m venv scaleout/.venv && \
		$(SPARK_PYTHON) -m pip install --quiet --require-hashes -r scaleout/requirements.txt; \
	fi

# The report of `make report`, computed on Spark in local mode (two executor threads).
spark-report: static-build spark-deps
	SPARK_LOCAL_IP=127.0.0.1 PYSPARK_PYTHON=$(SPARK_PYTHON) $(SPARK_PYTHON) scaleout/driver.py \
		--binary $(STATIC_BINARY) --work $(OUT)/spark-work --master "local[2]" -- \
		--data $(DATA) --month $(MONTH) --out $(OUT)/spark $(ARGS)

# The steps without Spark, then Spark in local mode with a task that fails once: both must give
# `refund-cost report`'s bytes.
spark-test: static-build spark-deps
	python3 scaleout/tests/test_steps.py $(STATIC_BINARY)
	$(SPARK_PYTHON) scaleout/tests/test_spark.py $(STATIC_BINARY)

lint:
	$(SWIFT) format lint --strict --recursive Sources Tests Package.swift

# Every libFuzzer target (Fuzz/Targets/) for FUZZ_SECONDS each, from the committed seeds.
FUZZ_SECONDS ?= 180
fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) Fuzz/run.sh

# refund-cost report beside a DuckDB baseline on ~10 million generated cost rows (outside git),
# with libcsv's raw rate as the ceiling and a check that both agree to the micro-unit.
bench: build test-deps
	python3 bench/run_bench.py $(BENCH_ARGS)

# Time and memory of `report --no-verify` at several sizes (SCALE=...; each set takes disk in
# bench/data/: about 24 MB per 1,000 accounts).
SCALE ?= 10000,30000,100000
bench-scale: build
	python3 bench/run_bench.py --scale $(SCALE) $(BENCH_ARGS)

# Only `report` and `respond` (against the test stub of Apple's API) on the bench set.
bench-respond: build
	python3 bench/run_bench.py --respond-only $(BENCH_ARGS)

# The App Store step of a distributed report on Spark in local mode (local[1], local[2]) beside
# today's one-process snapshot, on the bench set; the report checked byte for byte.
bench-spark: build spark-deps
	python3 bench/run_bench.py --spark-only $(BENCH_ARGS)

# A whole distributed report on Spark local[2]: every refund-cost process's peak memory by step
# (each task's and each driver step's), the report checked byte for byte. --accounts N in BENCH_ARGS.
bench-scaleout: build spark-deps
	python3 bench/run_bench.py --scaleout-only $(BENCH_ARGS)

# Only `report` and `publish` of its folder into SQLite and a PostgreSQL server started for it.
bench-publish: build test-deps
	python3 bench/run_bench.py --publish-only $(BENCH_ARGS)

# Only a FOCUS bill spread over the bench set's usage, beside the same rows with their shares.
bench-allocation: build
	python3 bench/run_bench.py --allocation-only $(BENCH_ARGS)

# `fetch transactions` of 1,000 and 10,000 customers from the stub at Apple's 50 calls a second:
# CPU per call and memory as the customers grow (FETCH=... for other sizes).
FETCH ?= 1000,10000
bench-fetch: build
	python3 bench/run_bench.py --fetch-customers $(FETCH)

# Validation speed on a generated 1-million-row cost file, beside libcsv's raw parse rate.
bench-validate: build
	bench/validate-bench.sh

clean:
	rm -rf .build
