/// The catalog the generator sells.
enum SyntheticCatalog {
    static let monthly = "com.example.pro.monthly"
    static let monthlyMax = "com.example.max.monthly"
    static let yearly = "com.example.pro.yearly"
    static let lifetime = "com.example.pro.lifetime"
    static let credits = "com.example.credits.500"
    static let group = "21400001"

    static let productsCSV = """
        product_id,type,period,credits
        com.example.credits.500,Consumable,,500
        com.example.max.monthly,Auto-Renewable Subscription,P1M,
        com.example.pro.lifetime,Non-Consumable,,
        com.example.pro.monthly,Auto-Renewable Subscription,P1M,
        com.example.pro.yearly,Auto-Renewable Subscription,P1Y,

        """

    static func price(_ product: String) -> Int64 {
        switch product {
        case monthly: 9990
        case monthlyMax: 19990
        case yearly: 79990
        case lifetime: 149_990
        default: 4990
        }
    }
}
