/// The product's version, printed by `--version` and recorded in `run.json`.
package enum ToolVersion {
    package static let current = "0.16.0"
}
