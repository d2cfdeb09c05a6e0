/// The shape of a cost file: this tool's own (`timestamp,account_id,category,cost,...`), or an
/// export another tool writes, read as it comes (`--cost-format GLOB:NAME`).
///
/// A format names, for each cost column, the header the export uses (the first of them the
/// file has, so an export that renamed a column across versions still reads), and what it
/// means differently: where the quantity is two columns to add, costs in exponent form, a row
/// with no user that is still a row (its cost is `unlinked`). docs/inputs.md lists the
/// columns read and where each format is documented.
package enum CostFormat: String, Sendable, Hashable, Codable, CaseIterable {
    case plain
    /// Helicone's request export (`npx @helicone/export --format csv`), costs in USD.
    case helicone
    /// Langfuse's observation export (blob storage export, enriched observations as CSV), in USD.
    case langfuse
    /// OpenMeter usage events, CloudEvents as JSON lines (`costs/*.jsonl`): usage without cost,
    /// priced from prices.csv.
    case openmeter

    /// Read as JSON lines, one event a line, not as CSV.
    package var readsJSONLines: Bool { self == .openmeter }

    /// True for a file name that holds JSON lines (`.jsonl`, or `.jsonl.gz`).
    package static func isJSONLines(_ path: String) -> Bool {
        let lower = path.lowercased()
        return lower.hasSuffix(".jsonl") || lower.hasSuffix(".jsonl.gz")
    }

    /// Why a file cannot be read as `format`, judged by its name alone; nil when it can.
    static func mismatch(_ path: String, _ format: CostFormat) -> String? {
        switch (isJSONLines(path), format.readsJSONLines) {
        case (true, false):
            return "JSON lines in costs/ are read as OpenMeter events only: --cost-format 'NAME.jsonl:openmeter' "
                + "(with --usage-field for the member of data that holds the quantity)"
        case (false, true):
            return "openmeter reads JSON lines (a .jsonl file of CloudEvents), not CSV"
        default:
            return nil
        }
    }

    /// The headers each column is read from, in order of preference; nil: the column's own name.
    package func headers(for name: CostColumns.Name) -> [String]? {
        switch (self, name) {
        case (.plain, _), (.openmeter, _): nil
        case (.helicone, .timestamp): ["request_created_at"]
        case (.helicone, .accountID): ["request_user_id"]
        case (.helicone, .category): ["model", "request_model", "response_model"]
        case (.helicone, .cost): ["cost", "costUSD", "cost_usd"]
        case (.helicone, .requestID): ["response_id", "request_id"]
        case (.helicone, .quantity): ["prompt_tokens"]
        case (.langfuse, .timestamp): ["start_time", "startTime"]
        case (.langfuse, .accountID): ["user_id", "userId"]
        case (.langfuse, .category): ["provided_model_name", "model"]
        case (.langfuse, .cost): ["total_cost", "calculatedTotalCost", "totalCost"]
        case (.langfuse, .requestID): ["id"]
        case (.helicone, .currency), (.helicone, .unit), (.langfuse, .currency), (.langfuse, .unit),
            (.langfuse, .quantity):
            []
        }
    }

    /// A second column added to the quantity (Helicone: prompt plus completion tokens).
    var addedQuantityHeader: String? { self == .helicone ? "completion_tokens" : nil }

    /// Gateways print small costs as JavaScript numbers (`1.5e-7`).
    var allowsExponent: Bool { self != .plain }

    /// A request with no user id is still cost: it is kept, as `unlinked`, not refused.
    var keepsRowsWithoutAccount: Bool { self != .plain }

    /// An export's cost is empty when the gateway could not price the model: 0, kept.
    var emptyCostIsZero: Bool { self != .plain }
}
