/// Keeps one copy of each long string: a million records naming the same product then share
/// one buffer instead of holding a million.
///
/// Up to 15 UTF-8 bytes a Swift string lives inside its own value, so only longer ones are
/// looked up.
package struct StringInterner {
    private var seen = Set<String>()

    package init() {}

    package mutating func callAsFunction(_ text: String) -> String {
        guard text.utf8.count > 15 else { return text }
        return seen.insert(text).memberAfterInsert
    }

    package mutating func callAsFunction(_ text: String?) -> String? {
        guard let text else { return nil }
        return self(text)
    }
}
