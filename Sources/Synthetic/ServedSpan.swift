/// A stretch of time during which the app's server served an account (and so spent money).
struct ServedSpan {
    var from: Int64
    var to: Int64
    /// Credit-metered use (a consumable purchase) rather than access-based use.
    var credits = false
}
