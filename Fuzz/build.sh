#!/usr/bin/env bash
# Builds the libFuzzer targets in Fuzz/Targets/ with coverage and AddressSanitizer:
# Support, Ingest and AppStoreAPI (the stages that read outside input: files, and what a server
# answers) as static libraries, then each target against them. Output: .build/fuzz/<target>.
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFTC="${SWIFTC:-$(command -v swiftc || echo /opt/swift/usr/bin/swiftc)}"
out=.build/fuzz
mkdir -p "$out"
flags=(-sanitize=fuzzer,address -parse-as-library -package-name refund_cost -Onone -g -I "$out"
    -I Sources/CLibCSV -I Sources/COpenSSL -I Sources/CSystem -I Sources/CZlib -I Sources/CISAL -I Sources/CCurl)
module() {
    local name="$1"
    # The archiver adds to an existing archive: start from none, or old objects stay in it.
    rm -f "$out/lib$name.a"
    "$SWIFTC" "${flags[@]}" -module-name "$name" -emit-module -emit-module-path "$out/$name.swiftmodule" \
        -emit-library -static -o "$out/lib$name.a" $(find Sources/"$name" -name '*.swift' | sort)
}
module Support
module Ingest
module AppStoreAPI
for source in Fuzz/Targets/*.swift; do
    name=$(basename "$source" .swift)
    "$SWIFTC" "${flags[@]}" -module-name "$name" "$source" -L "$out" -lAppStoreAPI -lIngest -lSupport -lcsv -lcrypto -lz -lisal -lcurl -o "$out/$name" 2>&1 \
        | grep -v "Cannot export local symbol" || true
    test -x "$out/$name"
done
echo "built: $(ls Fuzz/Targets | sed 's/\.swift$//' | tr '\n' ' ')"
