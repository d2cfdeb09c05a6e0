/// Renewal info the generator writes: what the billing grace of a failed renewal needs.
struct SyntheticRenewal {
    var originalID: String
    var productID: String
    var graceEnd: Int64?
    var inBillingRetry: Bool
    var signed: Int64
}
